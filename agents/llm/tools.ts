/**
 * How the model acts: one tool per action it may take this turn (ACTION6 with x and y, RESET always),
 * and `write_notes` for its scratchpad. For servers without tool calling, the same choice is asked as
 * one JSON object in the reply's text (`output: json`). Both answers are read into one ModelChoice, or
 * into an error sentence the model is shown before it tries again.
 */
import { actionName } from 'arcbench';

export const NOTES_TOOL = 'write_notes';
/** Longer notes are cut; they are shown in every turn and would crowd out the frames. */
export const MAX_NOTES_CHARS = 4000;
/** A rationale is a sentence; it travels with the action in its reasoning. */
export const MAX_RATIONALE_CHARS = 300;

export interface ModelChoice {
  /** 0 (RESET) .. 7. */
  readonly id: number;
  readonly x?: number;
  readonly y?: number;
  readonly rationale?: string;
}

export interface ToolCallIn {
  readonly id: string;
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A tool in the Chat Completions shape. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const rationaleProperty = { rationale: { type: 'string', description: 'One short sentence: why this action.' } };
const coordinate = (axis: string) => ({ type: 'integer', minimum: 0, maximum: 63, description: `${axis}, 0..63` });

function actionTool(id: number): ToolSpec {
  const name = actionName(id);
  if (id === 6) {
    return {
      type: 'function',
      function: {
        name,
        description: 'Click the cell at column x, row y (origin top-left).',
        parameters: {
          type: 'object',
          properties: { x: coordinate('column'), y: coordinate('row'), ...rationaleProperty },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
    };
  }
  const description =
    id === 0 ? 'Restart the current level (after a loss, or to try again).' : id === 7 ? 'Undo, in games that offer it.' : `The game's key ${name}.`;
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties: rationaleProperty, additionalProperties: false } } };
}

const notesTool: ToolSpec = {
  type: 'function',
  function: {
    name: NOTES_TOOL,
    description: 'Replace your notes (rules learned, plans, what failed). They are shown to you every turn; older turns are only summarised.',
    parameters: { type: 'object', properties: { notes: { type: 'string' } }, required: ['notes'], additionalProperties: false },
  },
};

export function toolsFor(actionIds: readonly number[]): ToolSpec[] {
  return [...actionIds.map(actionTool), notesTool];
}

const isCoordinate = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 63;

/** A choice, or why it cannot be played (the sentence the model gets to see). */
export type Checked = { choice: ModelChoice } | { error: string };

/** An action named `name` with these fields, checked against what may be played now. */
export function checkChoice(name: unknown, fields: Record<string, unknown>, allowed: readonly number[]): Checked {
  const id = typeof name === 'string' ? allowed.find((candidate) => actionName(candidate) === name.trim().toUpperCase()) : undefined;
  if (id === undefined) return { error: `${JSON.stringify(name)} is not an action you can take now; choose one of ${allowed.map(actionName).join(', ')}.` };
  const rationale = typeof fields.rationale === 'string' && fields.rationale.trim() !== '' ? fields.rationale.trim().slice(0, MAX_RATIONALE_CHARS) : undefined;
  if (id !== 6) return { choice: { id, ...(rationale ? { rationale } : {}) } };
  const { x, y } = fields;
  if (!isCoordinate(x) || !isCoordinate(y))
    return { error: `ACTION6 needs x and y as whole numbers from 0 to 63; got x=${JSON.stringify(x)}, y=${JSON.stringify(y)}.` };
  return { choice: { id, x, y, ...(rationale ? { rationale } : {}) } };
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export interface ToolAnswer {
  /** The action to play, or why the answer cannot be played; undefined when the model only wrote notes. */
  readonly outcome: Checked | undefined;
  readonly notes?: string;
  /** One reply per tool call, in order; the API wants each call answered before the next turn. */
  readonly replies: Array<{ id: string; content: string }>;
}

/** Reads a reply's tool calls: at most one action, optionally notes. */
export function readToolCalls(calls: readonly ToolCallIn[], allowed: readonly number[]): ToolAnswer {
  const replies: ToolAnswer['replies'] = [];
  let notes: string | undefined;
  let outcome: Checked | undefined;
  for (const call of calls) {
    const fields = parseArguments(call.function.arguments);
    if (fields === undefined) {
      outcome ??= { error: `the arguments of ${call.function.name} are not a JSON object: ${call.function.arguments.slice(0, 200)}` };
      replies.push({ id: call.id, content: 'error: arguments are not a JSON object' });
    } else if (call.function.name === NOTES_TOOL) {
      notes = typeof fields.notes === 'string' ? fields.notes.slice(0, MAX_NOTES_CHARS) : '';
      replies.push({ id: call.id, content: 'notes saved' });
    } else if (outcome !== undefined) {
      outcome = { error: 'call exactly one action tool per turn.' };
      replies.push({ id: call.id, content: 'error: one action per turn' });
    } else {
      outcome = checkChoice(call.function.name, fields, allowed);
      replies.push({ id: call.id, content: 'choice' in outcome ? 'sent; the result comes with the next frame' : `error: ${outcome.error}` });
    }
  }
  return { outcome, ...(notes === undefined ? {} : { notes }), replies };
}

/** Braces tried from each side: enough for any real reply, and no quadratic parse of a long one. */
const MAX_BRACES_TRIED = 20;

/** The first {...} of a text, past any code fence or preamble; undefined when there is none. */
function firstJsonObject(text: string): Record<string, unknown> | undefined {
  let starts = 0;
  for (let start = text.indexOf('{'); start >= 0 && starts++ < MAX_BRACES_TRIED; start = text.indexOf('{', start + 1)) {
    let ends = 0;
    for (let end = text.lastIndexOf('}'); end > start && ends++ < MAX_BRACES_TRIED; end = text.lastIndexOf('}', end - 1)) {
      const fields = parseArguments(text.slice(start, end + 1));
      if (fields !== undefined) return fields;
    }
  }
  return undefined;
}

/** Reads a JSON-output reply: `{"action": "ACTION6", "x": 3, "y": 4, "rationale": "…", "notes": "…"}`. */
export function readJsonAnswer(text: string | null | undefined, allowed: readonly number[]): { outcome: Checked; notes?: string } {
  const fields = firstJsonObject(text ?? '');
  if (fields === undefined)
    return { outcome: { error: 'the reply holds no JSON object; answer with one JSON object such as {"action": "ACTION1", "rationale": "…"}.' } };
  const notes = typeof fields.notes === 'string' ? fields.notes.slice(0, MAX_NOTES_CHARS) : undefined;
  return { outcome: checkChoice(fields.action, fields, allowed), ...(notes === undefined ? {} : { notes }) };
}

export function jsonInstructions(allowed: readonly number[]): string {
  return (
    'Answer with one JSON object and nothing else: {"action": one of ' +
    allowed.map((id) => `"${actionName(id)}"`).join(', ') +
    ', "x": column and "y": row (0..63, only for ACTION6), "rationale": one short sentence, "notes": optional, replaces your notes}.'
  );
}
