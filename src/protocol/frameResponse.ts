/**
 * The frame response (docs/protocol.md §3): its type, with grids as Uint8Array, and its wire codec. The encoder
 * writes bytes directly (grids through writeGrid); the decoder scans the top-level object so the `frame`
 * value takes the grid fast path while the small fields go through JSON.parse and zod.
 */
import { ArcbenchError } from '../errors.ts';
import { Buffer } from 'node:buffer';
import { CLICK_ACTION_ID, type GameActionId } from './actions.ts';
import type { Grid } from './grid.ts';
import type { GameState } from './schemas.ts';
import { frameResponseMetaSchema, GAME_STATES } from './schemas.ts';
import { formatIssues } from './zodIssues.ts';
import { stringifyJson } from './jsonText.ts';
import { MAX_LEVEL_COUNTER } from './limits.ts';
import { framesFromRows, type GridCodecError, jsonBytes, MAX_ENCODED_GRID_BYTES, readFramesFast, skipSpace, writeFrames } from './gridCodec.ts';

export interface ActionInput {
  /** 0 is RESET, 1..7 the game actions. */
  id: number;
  /** The validated request fields: `{}` for RESET, `{game_id}`, or `{game_id, x, y}` for ACTION6. */
  data: Record<string, unknown>;
  reasoning?: unknown;
}

/**
 * The `action_input` of an answer (docs/protocol.md §3): the action's id, the request fields the service validated
 * (`{}` for RESET, `{game_id}`, or `{game_id, x, y}` for ACTION6) and the reasoning when there is one.
 * The service echoes it; a client records it as sent.
 */
export function actionInputOf(gameId: string, action: { id: number; x?: number; y?: number; reasoning?: unknown }): ActionInput {
  const data: Record<string, unknown> =
    action.id === 0 ? {} : action.id === CLICK_ACTION_ID ? { game_id: gameId, x: action.x, y: action.y } : { game_id: gameId };
  return action.reasoning === undefined ? { id: action.id, data } : { id: action.id, data, reasoning: action.reasoning };
}

export interface FrameResponse {
  game_id: string;
  guid: string;
  /** 1..N grids; the last is the current look. */
  frame: Grid[];
  state: GameState;
  levels_completed: number;
  win_levels: number;
  action_input: ActionInput;
  /** The game's actions (not enforced by the service: any id is accepted and counted). */
  available_actions: GameActionId[];
  full_reset: boolean;
}

/** The frame response as UTF-8 JSON bytes, ready to send. */
export function encodeFrameResponse(response: FrameResponse): Buffer {
  const head =
    `{"game_id":${JSON.stringify(response.game_id)},"guid":${JSON.stringify(response.guid)}` +
    `,"state":"${response.state}","levels_completed":${response.levels_completed},"win_levels":${response.win_levels}` +
    `,"action_input":${stringifyJson(response.action_input)}` +
    `,"available_actions":[${response.available_actions.join(',')}],"full_reset":${response.full_reset},"frame":`;
  const headBytes = Buffer.byteLength(head, 'utf8');
  const out = Buffer.allocUnsafe(headBytes + 3 + response.frame.length * (MAX_ENCODED_GRID_BYTES + 1));
  let pos = out.write(head, 0, 'utf8');
  pos = writeFrames(out, pos, response.frame);
  out[pos++] = 125; // }
  return out.subarray(0, pos);
}

export class FrameResponseDecodeError extends ArcbenchError {
  constructor(message: string) {
    super('FRAME_RESPONSE_DECODE', message);
  }
}

/** Decodes and validates a frame response from its JSON text (a string or UTF-8 bytes). */
export function decodeFrameResponse(input: string | Uint8Array): FrameResponse {
  const bytes = jsonBytes(input);
  const fast = scanTopLevel(bytes);
  if (fast !== undefined && isWellFormedMeta(fast.rest)) return completeResponse(fast.rest, fast.frames);
  const fields: ScannedFields = fast ?? slowParse(bytes);
  const meta = frameResponseMetaSchema.safeParse(fields.rest);
  if (!meta.success) throw new FrameResponseDecodeError(`frame response: ${formatIssues(meta.error.issues)}`);
  let frame: Grid[];
  try {
    frame = fields.frames ?? framesFromRows(fields.rawFrames);
  } catch (error) {
    throw new FrameResponseDecodeError(`frame response: ${(error as GridCodecError).message}`);
  }
  return completeResponse({ ...meta.data, action_input: { ...meta.data.action_input } }, frame);
}

/**
 * The response from its validated other fields (a fresh object, completed in place: unknown fields are
 * kept, as the response schemas keep them) and its grids, with the defaults docs/protocol.md §3 gives.
 */
function completeResponse(meta: FrameResponseMeta, frame: Grid[]): FrameResponse {
  const response = meta as unknown as FrameResponse;
  response.frame = frame;
  if (meta.full_reset === undefined) response.full_reset = false;
  if (meta.action_input.data === undefined) response.action_input.data = {};
  return response;
}

type FrameResponseMeta = Omit<FrameResponse, 'frame' | 'full_reset' | 'action_input'> & {
  full_reset?: boolean;
  action_input: { id: number; data?: Record<string, unknown>; reasoning?: unknown };
};

/**
 * The common case of frameResponseMetaSchema, checked by hand: zod cost a visible share of a loopback
 * action. Anything this does not accept goes to zod, which decides and words the error (and reads the
 * rare spellings, such as the state `NOT_STARTED`).
 */
function isWellFormedMeta(value: Record<string, unknown>): value is FrameResponseMeta {
  const input = value.action_input as Record<string, unknown> | null | undefined;
  return (
    typeof value.game_id === 'string' &&
    typeof value.guid === 'string' &&
    (GAME_STATES as readonly unknown[]).includes(value.state) &&
    isCount(value.levels_completed, MAX_LEVEL_COUNTER) &&
    isCount(value.win_levels, MAX_LEVEL_COUNTER) &&
    (value.full_reset === undefined || typeof value.full_reset === 'boolean') &&
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    isCount(input.id, 7) &&
    (input.data === undefined || (typeof input.data === 'object' && input.data !== null && !Array.isArray(input.data))) &&
    isActionList(value.available_actions)
  );
}

function isActionList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  // Ids 1..7 (docs/protocol.md §3): RESET is always possible and never listed.
  for (let i = 0; i < value.length; i++) if (value[i] === 0 || !isCount(value[i], 7)) return false;
  return true;
}

function isCount(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

interface ScannedFields {
  rest: Record<string, unknown>;
  frames?: Grid[];
  rawFrames?: unknown;
}

function slowParse(bytes: Buffer): ScannedFields {
  let value: unknown;
  try {
    value = JSON.parse(utf8(bytes, 0, bytes.length));
  } catch (error) {
    throw new FrameResponseDecodeError(`frame response: not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FrameResponseDecodeError('frame response: expected a JSON object');
  const { frame, ...rest } = value as Record<string, unknown>;
  return { rest, rawFrames: frame };
}

/** The bytes of the key `"frame"` as the wire spells it (an escaped spelling takes the slow path). */
const FRAME_KEY = Buffer.from('"frame"', 'latin1');

/**
 * The fast path: walks the top-level object without parsing it, takes the `frame` value through the
 * grid fast path, and parses everything else with one JSON.parse of the text with `null` in the frame's
 * place. Parsing each small field on its own cost more than all the grids' rows. Undefined when
 * anything is off the canonical path (no or two `frame` keys, an escaped key, a bad grid, invalid
 * JSON); the slow path then decides and words the error.
 */
function scanTopLevel(text: Buffer): { rest: Record<string, unknown>; frames: Grid[] } | undefined {
  let frames: Grid[] | undefined;
  let frameStart = -1;
  let frameEnd = -1;
  let i = skipSpace(text, 0);
  if (text[i] !== 123) return undefined; // {
  i = skipSpace(text, i + 1);
  if (text[i] === 125) return undefined;
  for (;;) {
    if (text[i] !== 34) return undefined; // "
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const isFrame = keyEnd - i === FRAME_KEY.length && text.compare(FRAME_KEY, 0, FRAME_KEY.length, i, keyEnd) === 0;
    i = skipSpace(text, keyEnd);
    if (text[i] !== 58) return undefined; // :
    i = skipSpace(text, i + 1);
    if (isFrame) {
      if (frames !== undefined) return undefined;
      const read = readFramesFast(text, i);
      if (read === undefined) return undefined;
      frames = read.grids;
      frameStart = i;
      frameEnd = i = read.end;
    } else {
      i = skipValue(text, i);
      if (i < 0) return undefined;
    }
    i = skipSpace(text, i);
    const c = text[i];
    if (c === 125) break;
    if (c !== 44) return undefined;
    i = skipSpace(text, i + 1);
  }
  if (skipSpace(text, i + 1) !== text.length || frames === undefined) return undefined;
  let rest: Record<string, unknown>;
  try {
    rest = JSON.parse(`${utf8(text, 0, frameStart)}null${utf8(text, frameEnd, text.length)}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // An escaped spelling of "frame" later in the object would have replaced the null: not canonical.
  // The null stays until the grids take its place, so the fields keep the order they came in.
  if (rest.frame !== null) return undefined;
  return { rest, frames };
}

/** End of the JSON string starting at `pos` (after its closing quote), or -1. */
function skipString(text: Uint8Array, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    const c = text[i];
    // A backslash (92) escapes the character after it; a quote (34) ends the string.
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return -1;
}

/** End of the JSON value starting at `pos`, or -1; JSON.parse of the slice validates it. */
function skipValue(text: Uint8Array, pos: number): number {
  const first = text[pos];
  if (first === 34) return skipString(text, pos);
  if (first === 123 || first === 91) {
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const c = text[i];
      if (c === 34) {
        i = skipString(text, i) - 1;
        if (i < 0) return -1;
      } else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = pos;
  while (i < text.length) {
    const c = text[i];
    if (c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9) break;
    i++;
  }
  return i === pos ? -1 : i;
}

function utf8(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end);
}
