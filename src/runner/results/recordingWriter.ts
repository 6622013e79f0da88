/**
 * One session's recording (SPEC §9): JSON lines `{"timestamp", "data": <frame response>}`, first line
 * the RESET answer, `action_input` as sent; gzip-compressed (`.recording.jsonl.gz`, the default: the
 * same lines inside, a fortieth of the size) or plain (`.recording.jsonl`).
 *
 * Creating the file is the slowest part of a short recording (milliseconds of kernel time on a busy
 * disk, more than an 80-step episode's play), so it happens in libuv's threadpool while the episode
 * plays; lines wait in memory until the file is there. Then lines go to the file in batches: when a
 * batch fills, when a second has passed since the last write (so `arcbench view` follows a slow
 * episode step by step; a gzip batch ends in a sync flush, so what is on disk always decodes), and on
 * close. Memory stays about one batch per open recording whatever its length; a run killed
 * mid-episode loses at most the last second of that episode's recording, never a finished one's.
 */
import { Buffer } from 'node:buffer';
import { closeSync, open, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionInput, FrameResponse } from '../../protocol/index.ts';
import { COMPRESSED_RECORDING_SUFFIX, RECORDING_SUFFIX } from './recordingReader.ts';
import { GzipRecordingEncoder } from './recordingGzip.ts';
import { lineHead, lineTail, maxLineBytes, writeLine } from './recordingLine.ts';

export type RecordingFormat = 'gzip' | 'jsonl';

/** `<game>.<agent>.<n>.<guid>.recording.jsonl[.gz]`, the name existing tools look for. */
export function recordingFileName(gameId: string, agentLabel: string, episode: number, guid: string, format: RecordingFormat = 'gzip'): string {
  return `${gameId}.${agentLabel}.${episode}.${guid}${format === 'gzip' ? COMPRESSED_RECORDING_SUFFIX : RECORDING_SUFFIX}`;
}

/** A plain batch holds a few lines of one grid each (about 9 KB a line); a gzip one, hundreds. */
const BATCH_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 1000;

export class RecordingWriter {
  readonly path: string;
  private fd: number | undefined;
  private opened: Promise<void>;
  private openError: Error | undefined;
  private closed = false;
  private readonly lines: PlainLines | GzipRecordingEncoder;
  private lastFlush = -Infinity;

  constructor(directory: string, fileName: string, format: RecordingFormat = 'gzip') {
    this.path = join(directory, fileName);
    this.lines = format === 'gzip' ? new GzipRecordingEncoder() : new PlainLines();
    this.opened = new Promise((resolve) => {
      open(this.path, 'a', (error, fd) => {
        if (error) this.openError = error;
        else this.fd = fd;
        // The lines that waited go out at once, so a reader following the recording sees them.
        if (this.fd !== undefined && !this.closed) this.flush();
        resolve();
      });
    });
  }

  /** Resolves once the file exists and holds every line written so far (for readers that follow it). */
  whenOpen(): Promise<void> {
    return this.opened;
  }

  write(response: FrameResponse, sent: ActionInput, at: Date = new Date()): void {
    if (this.closed) throw new Error(`recording ${this.path} is already closed`);
    if (this.openError !== undefined) throw this.cannotWrite();
    this.lines.write(response, sent, at.toISOString());
    if (this.fd === undefined) return;
    if (Date.now() - this.lastFlush >= FLUSH_INTERVAL_MS || this.lines.completeBytes().length >= BATCH_BYTES) this.flush();
  }

  /** Writes what is left (once the file exists) and closes it; rejects when the file could not be made. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.opened;
    if (this.openError !== undefined) throw this.cannotWrite();
    if (this.lines instanceof GzipRecordingEncoder) this.writeOut(this.lines.finish());
    else this.flush();
    closeSync(this.fd!);
    this.fd = undefined;
  }

  private cannotWrite(): Error {
    return new Error(`cannot write the recording ${this.path}: ${this.openError!.message}`);
  }

  private flush(): void {
    this.lastFlush = Date.now();
    if (this.lines instanceof GzipRecordingEncoder) this.lines.syncFlush();
    this.writeOut(this.lines.completeBytes());
    this.lines.consumed();
  }

  private writeOut(bytes: Uint8Array): void {
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd!, bytes, written, bytes.length - written);
  }
}

/**
 * Plain lines, built as bytes straight into the batch (grids by the fast codec, no intermediate
 * strings); the batch grows when a line does not fit (many frames, long reasoning, a file not open yet).
 */
class PlainLines {
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;

  write(response: FrameResponse, sent: ActionInput, timestamp: string): void {
    const head = lineHead(response, timestamp);
    const tail = lineTail(response, sent);
    const most = maxLineBytes(response, head, tail);
    if (this.used + most > this.batch.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.batch.length, this.used + most));
      this.batch.copy(grown, 0, 0, this.used);
      this.batch = grown;
    }
    this.used = writeLine(this.batch, this.used, response, head, tail);
  }

  completeBytes(): Uint8Array {
    return this.batch.subarray(0, this.used);
  }

  consumed(): void {
    this.used = 0;
  }
}
