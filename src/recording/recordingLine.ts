/**
 * One recording line (docs/protocol.md §9): `{"timestamp", "data": <frame response>}` with the grids as nested
 * arrays and `action_input` as sent. The text around the grids (head and tail) is built here once for
 * both writers, plain and gzip, so both write the very same bytes.
 */
import { Buffer } from 'node:buffer';
import type { ActionInput, FrameResponse } from '../protocol/index.ts';
import { MAX_ENCODED_GRID_BYTES, stringifyJson, writeFrames } from '../protocol/index.ts';

let lastMs = Number.NaN;
let lastTimestamp = '';

/**
 * The line's timestamp, ISO 8601 in UTC. Made once a millisecond: an in-process run records a hundred
 * lines in one, and toISOString was a sixth of what a line cost the playing thread.
 */
export function lineTimestamp(at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (ms !== lastMs) {
    lastTimestamp = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastTimestamp;
}

/** Everything before the grids, ending in `"frame":`. */
export function lineHead(response: FrameResponse, timestamp: string): string {
  return `{"timestamp":${JSON.stringify(timestamp)},"data":{"game_id":${JSON.stringify(response.game_id)},"guid":${JSON.stringify(response.guid)},"frame":`;
}

/** Everything after the grids, ending in the newline. */
export function lineTail(response: FrameResponse, sent: ActionInput): string {
  return (
    `,"state":${JSON.stringify(response.state)},"levels_completed":${response.levels_completed}` +
    `,"win_levels":${response.win_levels},"action_input":${stringifyJson(sent)}` +
    `,"available_actions":${JSON.stringify(response.available_actions)},"full_reset":${response.full_reset}}}\n`
  );
}

/** The most bytes the line can take. */
export function maxLineBytes(response: FrameResponse, head: string, tail: string): number {
  return Buffer.byteLength(head) + Buffer.byteLength(tail) + 2 + response.frame.length * (MAX_ENCODED_GRID_BYTES + 1);
}

/** Writes the line into `out` at `pos` (which has maxLineBytes free); returns the end position. */
export function writeLine(out: Buffer, pos: number, response: FrameResponse, head: string, tail: string): number {
  pos += out.write(head, pos, 'utf8');
  pos = writeFrames(out, pos, response.frame);
  return pos + out.write(tail, pos, 'utf8');
}

/** One recording line as text, byte for byte what the writers write. */
export function recordingLine(response: FrameResponse, sent: ActionInput, timestamp: string): string {
  const head = lineHead(response, timestamp);
  const tail = lineTail(response, sent);
  const out = Buffer.allocUnsafe(maxLineBytes(response, head, tail));
  return out.toString('utf8', 0, writeLine(out, 0, response, head, tail));
}
