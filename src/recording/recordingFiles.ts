/**
 * The recording thread's files: each recording's file, its lines (gzip-compressed or plain) and when
 * they go to disk. Creating a file is the slowest part of a short recording (a millisecond of kernel
 * time on a busy disk, more than an 80-step episode's play): it happens in libuv's threadpool, several
 * at once, while lines wait in memory; a sync or close asked for meanwhile is answered once it exists. Lines go to the file in batches: when a batch fills, when a second has passed since
 * the last write (so `arcbench view` follows a slow episode step by step; a gzip batch ends in a sync
 * flush, so what is on disk always decodes), on a sync and on close. Memory stays about one batch per
 * open recording whatever its length; a run killed mid-episode loses at most the last second of that
 * episode's recording, never a finished one's.
 *
 * A file that cannot be made or written fails its recording: the failure is told once, and its later
 * lines are dropped (the episode fails on its next write or at close).
 */
import { Buffer } from 'node:buffer';
import { closeSync, open, writeSync } from 'node:fs';
import type { Grid } from '../protocol/index.ts';
import { MAX_ENCODED_GRID_BYTES, writeFrames } from '../protocol/index.ts';
import type { BatchHandlers } from './recordingBatch.ts';
import { GzipRecordingEncoder } from './recordingGzip.ts';

export type RecordingFormat = 'gzip' | 'jsonl';

/** A plain batch holds a few lines of one grid each (about 9 KB a line); a gzip one, hundreds. */
const BATCH_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 1000;

/** What the files tell the playing thread. */
export interface RecordingEvents {
  /** The recording failed (its file could not be made or written); told once. */
  failed(id: number, message: string): void;
  /** Every line sent before the sync is on disk. */
  synced(id: number): void;
  /** The file is complete and closed (or `error` says why it is not). */
  closed(id: number, error: string | undefined): void;
}

interface OpenRecording {
  readonly path: string;
  /** Undefined while the file is being made (no error yet either), and when it could not be. */
  fd: number | undefined;
  readonly lines: PlainLines | GzipRecordingEncoder;
  lastFlush: number;
  /** Why the recording failed, once it has. */
  error: string | undefined;
  /** Syncs and the close asked for while the file was being made. */
  waitingSyncs: number;
  closeAsked: boolean;
}

/** The file is still being made: neither there nor failed. */
const opening = (recording: OpenRecording) => recording.fd === undefined && recording.error === undefined;

/** Encoders kept for the next recordings: a new one each time left tens of MB of buffers for the collector. */
const SPARE_ENCODERS = 16;

export class RecordingFiles implements BatchHandlers {
  readonly #open = new Map<number, OpenRecording>();
  readonly #spare = { gzip: [] as GzipRecordingEncoder[], jsonl: [] as PlainLines[] };

  constructor(private readonly events: RecordingEvents) {}

  open(id: number, path: string, format: RecordingFormat): void {
    const recording: OpenRecording = {
      path,
      fd: undefined,
      lines: format === 'gzip' ? (this.#spare.gzip.pop() ?? new GzipRecordingEncoder()) : (this.#spare.jsonl.pop() ?? new PlainLines()),
      lastFlush: Date.now(),
      error: undefined,
      waitingSyncs: 0,
      closeAsked: false,
    };
    this.#open.set(id, recording);
    open(path, 'a', (error, fd) => {
      if (error) this.#fail(id, recording, error);
      else recording.fd = fd;
      // What waited for the file goes out at once, so a reader following the recording sees it.
      if (recording.closeAsked) this.#finish(id, recording);
      else if (recording.error === undefined) this.#flush(id, recording);
      for (; recording.waitingSyncs > 0; recording.waitingSyncs--) this.events.synced(id);
    });
  }

  line(id: number, head: Uint8Array, grids: readonly Grid[], tail: Uint8Array): void {
    const recording = this.#recording(id);
    if (recording.error !== undefined) return;
    recording.lines.writeLine(head, grids, tail);
    if (recording.fd === undefined) return;
    if (Date.now() - recording.lastFlush >= FLUSH_INTERVAL_MS || recording.lines.completeBytes().length >= BATCH_BYTES) this.#flush(id, recording);
  }

  sync(id: number): void {
    const recording = this.#recording(id);
    if (opening(recording)) {
      recording.waitingSyncs++;
      return;
    }
    if (recording.error === undefined) this.#flush(id, recording);
    this.events.synced(id);
  }

  close(id: number): void {
    const recording = this.#recording(id);
    if (opening(recording)) recording.closeAsked = true;
    else this.#finish(id, recording);
  }

  /** The rest of the lines (the gzip trailer with them), then the file is closed. */
  #finish(id: number, recording: OpenRecording): void {
    this.#open.delete(id);
    if (recording.error === undefined) {
      const lines = recording.lines;
      this.#guarded(id, recording, () => this.#writeOut(recording, lines instanceof GzipRecordingEncoder ? lines.finish() : lines.completeBytes()));
    }
    if (recording.fd !== undefined) closeSync(recording.fd);
    this.#keep(recording.lines);
    this.events.closed(id, recording.error);
  }

  #keep(lines: PlainLines | GzipRecordingEncoder): void {
    lines.reset();
    if (lines instanceof GzipRecordingEncoder) {
      if (this.#spare.gzip.length < SPARE_ENCODERS) this.#spare.gzip.push(lines);
    } else if (this.#spare.jsonl.length < SPARE_ENCODERS) {
      this.#spare.jsonl.push(lines);
    }
  }

  #recording(id: number): OpenRecording {
    const recording = this.#open.get(id);
    if (recording === undefined) throw new Error(`recording ${id} is not open in the recording thread`);
    return recording;
  }

  #flush(id: number, recording: OpenRecording): void {
    recording.lastFlush = Date.now();
    const lines = recording.lines;
    if (lines instanceof GzipRecordingEncoder) lines.syncFlush();
    this.#guarded(id, recording, () => this.#writeOut(recording, lines.completeBytes()));
    lines.consumed();
  }

  /** A write that fails (a full disk) fails the recording, not the thread. */
  #guarded(id: number, recording: OpenRecording, write: () => void): void {
    try {
      write();
    } catch (cause) {
      this.#fail(id, recording, cause as Error);
    }
  }

  #fail(id: number, recording: OpenRecording, cause: Error): void {
    recording.error = `cannot write the recording ${recording.path}: ${cause.message}`;
    this.events.failed(id, recording.error);
  }

  #writeOut(recording: OpenRecording, bytes: Uint8Array): void {
    let written = 0;
    while (written < bytes.length) written += writeSync(recording.fd!, bytes, written, bytes.length - written);
  }
}

/**
 * Plain lines, built as bytes straight into the batch (grids by the fast codec, no intermediate
 * strings); the batch grows when a line does not fit (many frames, long reasoning).
 */
class PlainLines {
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;

  writeLine(head: Uint8Array, grids: readonly Grid[], tail: Uint8Array): void {
    const most = head.length + tail.length + 2 + grids.length * (MAX_ENCODED_GRID_BYTES + 1);
    if (this.used + most > this.batch.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.batch.length, this.used + most));
      this.batch.copy(grown, 0, 0, this.used);
      this.batch = grown;
    }
    this.batch.set(head, this.used);
    this.used = writeFrames(this.batch, this.used + head.length, grids);
    this.batch.set(tail, this.used);
    this.used += tail.length;
  }

  completeBytes(): Uint8Array {
    return this.batch.subarray(0, this.used);
  }

  consumed(): void {
    this.used = 0;
  }

  reset(): void {
    this.used = 0;
  }
}
