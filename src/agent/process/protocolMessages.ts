/**
 * The messages of the agent protocol `arcbench.agent/1` (docs/agent-protocol.md): requests as the lines
 * arcbench writes to an agent's stdin, answers checked (zod, strict where it matters) as they come back
 * on its answer channel. Answers are small; frames, the big part, are written by hand.
 */
import { z } from 'zod';
import { type FrameResponse, GRID_CELLS, type GameDescriptor } from '../../protocol/index.ts';
import { declaredDescriptionSchema } from './declaredDescription.ts';
import { encodeHexGrid, writeHexGrid } from './hexGrid.ts';

export const AGENT_PROTOCOL = 'arcbench.agent/1';
/** The descriptor an agent writes its answers to (also in ARCBENCH_ANSWER_FD). */
export const ANSWER_FD = 3;
/** The longest line either side writes. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** The longest `snapshot` answer: an agent's state with every frame it keeps (§7). */
export const MAX_SNAPSHOT_LINE_BYTES = 64 * 1024 * 1024;

/** A frame response as the protocol carries it: the service's fields, grids as hex strings. */
export function frameJson(frame: FrameResponse): string {
  const grids = frame.frame.map((grid) => `"${encodeHexGrid(grid)}"`).join(',');
  return `${frameFieldsJson(frame)},"grids":[${grids}]}`;
}

/** The frame's fields but its grids, as a JSON object left open for them. */
function frameFieldsJson(frame: FrameResponse): string {
  const { game_id, guid, state, levels_completed, win_levels, available_actions, full_reset, action_input } = frame;
  const meta = JSON.stringify({ game_id, guid, state, levels_completed, win_levels, available_actions, full_reset, action_input });
  return meta.slice(0, -1);
}

export interface EpisodeStart {
  readonly game: GameDescriptor;
  readonly seed: number;
  readonly episode: number;
  readonly label: string;
  readonly card_id: string;
  readonly params: unknown;
  readonly budgets: Readonly<Record<string, number | undefined>>;
}

export function helloLine(): string {
  return `${JSON.stringify({ type: 'hello', protocol: AGENT_PROTOCOL })}\n`;
}

export function startLine(start: EpisodeStart, frame: FrameResponse): string {
  const { game_id, title, tags, baseline_actions } = start.game;
  const head = JSON.stringify({ ...start, type: 'start', game: { game_id, title, tags, baseline_actions } });
  return `${head.slice(0, -1)},"frame":${frameJson(frame)}}\n`;
}

/**
 * The `frame` request, the one written every step: its bytes are put together in one buffer, the grids'
 * hex digits written straight into it, rather than as strings joined and then encoded for the pipe.
 */
export function frameLine(counters: { step: number; actions: number; levelActions: number }, frame: FrameResponse): Buffer {
  const head = `{"type":"frame","step":${counters.step},"actions":${counters.actions},"level_actions":${counters.levelActions},"frame":${frameFieldsJson(frame)},"grids":[`;
  const headBytes = Buffer.byteLength(head);
  const grids = frame.frame;
  const line = Buffer.allocUnsafe(headBytes + grids.length * (GRID_CELLS + 3) - (grids.length > 0 ? 1 : 0) + FRAME_LINE_END.length);
  let offset = line.write(head, 0);
  for (let index = 0; index < grids.length; index++) {
    if (index > 0) line[offset++] = COMMA;
    line[offset++] = QUOTE;
    writeHexGrid(grids[index]!, line, offset);
    offset += GRID_CELLS;
    line[offset++] = QUOTE;
  }
  line.write(FRAME_LINE_END, offset, 'latin1');
  return line;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const FRAME_LINE_END = ']}}\n';

export function endLine(end: { outcome: string; actions: number; levelsCompleted: number }): string {
  return `${JSON.stringify({ type: 'end', outcome: end.outcome, actions: end.actions, levels_completed: end.levelsCompleted })}\n`;
}

/** Asks for the agent's state after the decision it just answered (§7). */
export function snapshotLine(): string {
  return '{"type":"snapshot"}\n';
}

/** Starts the episode from a state the agent's `snapshot` answer gave, instead of `start` (§7). */
export function restoreLine(start: EpisodeStart, state: unknown): string {
  const { game_id, title, tags, baseline_actions } = start.game;
  return `${JSON.stringify({ ...start, type: 'restore', game: { game_id, title, tags, baseline_actions }, state })}\n`;
}

export function stopLine(reason: string): string {
  return `${JSON.stringify({ type: 'stop', reason })}\n`;
}

const usageCall = z.looseObject({ model: z.string() });
/** A model call the agent made itself, as it keeps it: what it sent, what came back, its usage (counted). */
const keptCall = z.looseObject({ request: z.looseObject({}), response: z.looseObject({}).optional(), usage: usageCall });

const answerSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('hello'), protocol: z.string(), name: z.string().optional(), describe: declaredDescriptionSchema.optional() }),
  z.looseObject({
    type: z.literal('act'),
    action: z.int().min(0).max(7),
    x: z.int().min(0).max(63).optional(),
    y: z.int().min(0).max(63).optional(),
    reasoning: z.unknown().optional(),
    usage: z.union([usageCall, z.array(usageCall)]).optional(),
    transcripts: z.array(keptCall).optional(),
  }),
  z.looseObject({
    type: z.literal('done'),
    reason: z.string().optional(),
    details: z.unknown().optional(),
    usage: z.union([usageCall, z.array(usageCall)]).optional(),
    transcripts: z.array(keptCall).optional(),
  }),
  z.looseObject({ type: z.literal('snapshot'), state: z.unknown().optional(), refused: z.string().optional() }),
  z.looseObject({ type: z.literal('restored') }),
  z.looseObject({
    type: z.literal('error'),
    message: z.string(),
    where: z.array(z.looseObject({ file: z.string(), line: z.number(), function: z.string().optional() })).optional(),
    traceback: z.string().optional(),
  }),
]);

export type AgentAnswer = z.output<typeof answerSchema>;
export type ErrorAnswer = Extract<AgentAnswer, { type: 'error' }>;

/** A line that is not an answer, and why, as a sentence. */
export class InvalidAnswer {
  constructor(readonly why: string) {}
}

/** The answer on one line, or why the line is not one. */
export function parseAnswer(line: string): AgentAnswer | InvalidAnswer {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return new InvalidAnswer(`wrote something that is not a protocol answer on its answer channel: ${quoted(line)}`);
  }
  const parsed = answerSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return new InvalidAnswer(`wrote an answer arcbench cannot use (${path}${issue.message}): ${quoted(line)}`);
}

/** An agent's error as one message: its sentence, then where (the innermost frames, file:line). */
export function errorMessage(answer: ErrorAnswer): string {
  const frames = (answer.where ?? []).slice(-3).map((frame) => `${frame.file}:${frame.line}${frame.function ? ` in ${frame.function}` : ''}`);
  return frames.length === 0 ? answer.message : `${answer.message} (at ${frames.join(' → ')})`;
}

function quoted(line: string): string {
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}
