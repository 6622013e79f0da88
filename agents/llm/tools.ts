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
  /** In a batch: what the model expects this action to do, in its words. */
  readonly prediction?: string;
  /** In a batch: whether the model expects the grid to change; the batch stops when it is wrong. */
  readonly expectChange?: boolean;
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
/** Offered when the model may plan several actions a turn: the batch stops at the first wrong prediction. */
const predictionProperties = {
  prediction: { type: 'string', description: 'Optional, a few words: what you expect this action to do.' },
  expect_change: {
    type: 'boolean',
    description: 'Optional: true if you expect the grid to change, false if not. A wrong guess stops the batch after this action.',
  },
};
/** Longest prediction kept; it travels with the action's reasoning. */
const MAX_PREDICTION_CHARS = 200;
const coordinate = (axis: string) => ({ type: 'integer', minimum: 0, maximum: 63, description: `${axis}, 0..63` });

function actionTool(id: number, batches: boolean): ToolSpec {
  const name = actionName(id);
  const fields = batches ? { ...rationaleProperty, ...predictionProperties } : rationaleProperty;
  if (id === 6) {
    return {
      type: 'function',
      function: {
        name,
        description: 'Click the cell at column x, row y (origin top-left).',
        parameters: {
          type: 'object',
          properties: { x: coordinate('column'), y: coordinate('row'), ...fields },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
    };
  }
  const description =
    id === 0 ? 'Restart the current level (after a loss, or to try again).' : id === 7 ? 'Undo, in games that offer it.' : `The game's key ${name}.`;
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties: fields, additionalProperties: false } } };
}

const notesTool: ToolSpec = {
  type: 'function',
  function: {
    name: NOTES_TOOL,
    description: 'Replace your notes (rules learned, plans, what failed). They are shown to you every turn; older turns are only summarised.',
    parameters: { type: 'object', properties: { notes: { type: 'string' } }, required: ['notes'], additionalProperties: false },
  },
};

/** The tools of a turn; with `maxActions` over 1 each action takes a prediction. */
export function toolsFor(actionIds: readonly number[], maxActions = 1): ToolSpec[] {
  return [...actionIds.map((id) => actionTool(id, maxActions > 1)), notesTool];
}

const isCoordinate = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 63;

/** A choice (and, in a batch, the ones planned after it), or why it cannot be played (the sentence the model gets to see). */
export type Checked = { choice: ModelChoice; then?: ModelChoice[] } | { error: string };

/** The prediction fields of a call, when it has any. */
function predictionOf(fields: Record<string, unknown>): Pick<ModelChoice, 'prediction' | 'expectChange'> {
  const text = typeof fields.prediction === 'string' && fields.prediction.trim() !== '' ? fields.prediction.trim().slice(0, MAX_PREDICTION_CHARS) : undefined;
  return {
    ...(text === undefined ? {} : { prediction: text }),
    ...(typeof fields.expect_change === 'boolean' ? { expectChange: fields.expect_change } : {}),
  };
}

/** An action named `name` with these fields, checked against what may be played now. */
export function checkChoice(name: unknown, fields: Record<string, unknown>, allowed: readonly number[]): Checked {
  const id = typeof name === 'string' ? allowed.find((candidate) => actionName(candidate) === name.trim().toUpperCase()) : undefined;
  if (id === undefined) return { error: `${JSON.stringify(name)} is not an action you can take now; choose one of ${allowed.map(actionName).join(', ')}.` };
  const rationale = typeof fields.rationale === 'string' && fields.rationale.trim() !== '' ? fields.rationale.trim().slice(0, MAX_RATIONALE_CHARS) : undefined;
  const extra = { ...(rationale ? { rationale } : {}), ...predictionOf(fields) };
  if (id !== 6) return { choice: { id, ...extra } };
  const { x, y } = fields;
  if (!isCoordinate(x) || !isCoordinate(y))
    return { error: `ACTION6 needs x and y as whole numbers from 0 to 63; got x=${JSON.stringify(x)}, y=${JSON.stringify(y)}.` };
  return { choice: { id, x, y, ...extra } };
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

/**
 * Reads a reply's tool calls: at most `maxActions` actions, played in their order, optionally notes.
 * One unplayable action makes the whole answer unplayable: a batch is planned as a whole.
 */
export function readToolCalls(calls: readonly ToolCallIn[], allowed: readonly number[], maxActions = 1): ToolAnswer {
  const replies: ToolAnswer['replies'] = [];
  const choices: ModelChoice[] = [];
  let notes: string | undefined;
  let error: string | undefined;
  for (const call of calls) {
    const fields = parseArguments(call.function.arguments);
    if (fields === undefined) {
      error ??= `the arguments of ${call.function.name} are not a JSON object: ${call.function.arguments.slice(0, 200)}`;
      replies.push({ id: call.id, content: 'error: arguments are not a JSON object' });
    } else if (call.function.name === NOTES_TOOL) {
      notes = typeof fields.notes === 'string' ? fields.notes.slice(0, MAX_NOTES_CHARS) : '';
      replies.push({ id: call.id, content: 'notes saved' });
    } else if (choices.length + (error === undefined ? 0 : 1) >= maxActions) {
      error = maxActions === 1 ? 'call exactly one action tool per turn.' : `call at most ${maxActions} action tools per turn.`;
      replies.push({ id: call.id, content: maxActions === 1 ? 'error: one action per turn' : `error: at most ${maxActions} actions per turn` });
    } else {
      const checked = checkChoice(call.function.name, fields, allowed);
      if ('choice' in checked) choices.push(checked.choice);
      else error ??= checked.error;
      const queued =
        maxActions === 1 ? 'sent; the result comes with the next frame' : `queued as action ${choices.length}; the results come with the next frame`;
      replies.push({ id: call.id, content: 'choice' in checked ? queued : `error: ${checked.error}` });
    }
  }
  const [first, ...then] = choices;
  const outcome: Checked | undefined =
    error !== undefined ? { error } : first === undefined ? undefined : { choice: first, ...(then.length > 0 ? { then } : {}) };
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
