/**
 * One session's recording (SPEC §9): JSON lines `{"timestamp", "data": <frame response>}`, grids as
 * nested arrays, first line the RESET answer, `action_input` as sent. Each line is written to the file
 * as it happens (nothing is held in memory), so a recording of 100,000 actions costs no more memory
 * than one of ten, and a killed run keeps every line written so far.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionInput, FrameResponse } from '../protocol/index.ts';
import { encodeFrames } from '../protocol/index.ts';

/** `<game>.<agent>.<n>.<guid>.recording.jsonl`, the name existing tools look for. */
export function recordingFileName(gameId: string, agentLabel: string, episode: number, guid: string): string {
  return `${gameId}.${agentLabel}.${episode}.${guid}.recording.jsonl`;
}

/** One recording line, built by hand so the grids take the fast codec instead of JSON.stringify. */
export function recordingLine(response: FrameResponse, sent: ActionInput, timestamp: string): string {
  return (
    `{"timestamp":${JSON.stringify(timestamp)},"data":{"game_id":${JSON.stringify(response.game_id)}` +
    `,"guid":${JSON.stringify(response.guid)},"frame":${encodeFrames(response.frame)}` +
    `,"state":${JSON.stringify(response.state)},"levels_completed":${response.levels_completed}` +
    `,"win_levels":${response.win_levels},"action_input":${JSON.stringify(sent)}` +
    `,"available_actions":${JSON.stringify(response.available_actions)},"full_reset":${response.full_reset}}}\n`
  );
}

export class RecordingWriter {
  readonly path: string;
  private fd: number | undefined;

  constructor(directory: string, fileName: string) {
    this.path = join(directory, fileName);
    this.fd = openSync(this.path, 'a');
  }

  write(response: FrameResponse, sent: ActionInput, at: Date = new Date()): void {
    if (this.fd === undefined) throw new Error(`recording ${this.path} is already closed`);
    writeSync(this.fd, recordingLine(response, sent, at.toISOString()));
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
