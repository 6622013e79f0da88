/**
 * One session's recording (SPEC §9): JSON lines `{"timestamp", "data": <frame response>}`, grids as
 * nested arrays, first line the RESET answer, `action_input` as sent. Lines are built as bytes straight
 * into a buffer (grids by the fast codec, no intermediate strings) and go to the file in batches of up
 * to BATCH_BYTES and on close: a write per line cost more than the action it recorded. Memory stays
 * one batch per open recording whatever the recording's length; a run killed mid-episode loses at most
 * the last batch of that episode's recording, never a finished one's (they are closed, hence written).
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionInput, FrameResponse } from '../../protocol/index.ts';
import { isGameId, isUuid, MAX_ENCODED_GRID_BYTES, shownId, stringifyJson, writeFrames } from '../../protocol/index.ts';
import { ArcbenchError } from '../../errors.ts';

/** A label as the config allows it (letters, digits, `.`, `-`, `_`), so it cannot leave the folder. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * `<game>.<agent>.<n>.<guid>.recording.jsonl`, the name existing tools look for. Built only from values
 * checked here: the ids come from the service, and a `../../x` must not name a file outside the run.
 */
export function recordingFileName(gameId: string, agentLabel: string, episode: number, guid: string): string {
  if (!isGameId(gameId)) throw unsafeName('game id', gameId);
  if (!isUuid(guid)) throw unsafeName('session guid', guid);
  if (!LABEL.test(agentLabel)) throw unsafeName('agent label', agentLabel);
  if (!Number.isInteger(episode) || episode < 0) throw unsafeName('episode index', episode);
  return `${gameId}.${agentLabel}.${episode}.${guid}.recording.jsonl`;
}

function unsafeName(what: string, value: unknown): ArcbenchError {
  return new ArcbenchError('RECORDING_NAME_UNSAFE', `the ${what} ${shownId(value)} cannot name a recording file; no recording was written for this session`);
}

/** A batch holds a few lines of one grid each (about 9 KB a line). */
const BATCH_BYTES = 64 * 1024;

function lineHead(response: FrameResponse, timestamp: string): string {
  return `{"timestamp":${JSON.stringify(timestamp)},"data":{"game_id":${JSON.stringify(response.game_id)},"guid":${JSON.stringify(response.guid)},"frame":`;
}

function lineTail(response: FrameResponse, sent: ActionInput): string {
  return (
    `,"state":${JSON.stringify(response.state)},"levels_completed":${response.levels_completed}` +
    `,"win_levels":${response.win_levels},"action_input":${stringifyJson(sent)}` +
    `,"available_actions":${JSON.stringify(response.available_actions)},"full_reset":${response.full_reset}}}\n`
  );
}

function maxLineBytes(
  response: FrameResponse,
  sent: ActionInput,
  timestamp: string,
  head = lineHead(response, timestamp),
  tail = lineTail(response, sent),
): number {
  return Buffer.byteLength(head) + Buffer.byteLength(tail) + 2 + response.frame.length * (MAX_ENCODED_GRID_BYTES + 1);
}

function writeLine(
  out: Buffer,
  pos: number,
  response: FrameResponse,
  sent: ActionInput,
  timestamp: string,
  head = lineHead(response, timestamp),
  tail = lineTail(response, sent),
): number {
  pos += out.write(head, pos, 'utf8');
  pos = writeFrames(out, pos, response.frame);
  return pos + out.write(tail, pos, 'utf8');
}

export class RecordingWriter {
  readonly path: string;
  private fd: number | undefined;
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;

  constructor(directory: string, fileName: string) {
    this.path = join(directory, fileName);
    this.fd = openSync(this.path, 'a');
  }

  write(response: FrameResponse, sent: ActionInput, at: Date = new Date()): void {
    if (this.fd === undefined) throw new Error(`recording ${this.path} is already closed`);
    const timestamp = at.toISOString();
    const head = lineHead(response, timestamp);
    const tail = lineTail(response, sent);
    const most = maxLineBytes(response, sent, timestamp, head, tail);
    if (this.used + most > this.batch.length) {
      this.flush();
      // A line longer than a batch (many frames, long reasoning) gets a buffer of its own size.
      if (most > this.batch.length) this.batch = Buffer.allocUnsafe(most);
    }
    this.used = writeLine(this.batch, this.used, response, sent, timestamp, head, tail);
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    let written = 0;
    while (written < this.used) written += writeSync(this.fd!, this.batch, written, this.used - written);
    this.used = 0;
  }
}
