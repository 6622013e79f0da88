/**
 * What the playing thread hands the recording thread: operations on recording files (open, a line,
 * sync, close), packed one after another into a batch of bytes that is transferred, not copied. A
 * line goes as its head and tail text (UTF-8) and its grids' raw cells, so the playing thread neither
 * builds the line's text nor compresses it, and no object is cloned per line.
 *
 * Layout, little-endian: each operation starts with its code (1 byte) and the recording's id (4 bytes).
 * open: format (1 byte: 0 gzip, 1 jsonl), path length (4), path. line: head length (4), head, tail
 * length (4), tail, grid count (2), the grids (GRID_CELLS bytes each). sync and close: nothing more.
 */
import type { Grid } from '../protocol/index.ts';
import { GRID_CELLS } from '../protocol/index.ts';
import type { RecordingFormat } from './recordingFiles.ts';

const OPEN = 1;
const LINE = 2;
const SYNC = 3;
const CLOSE = 4;

/** What the recording thread does with each operation of a batch, in order. */
export interface BatchHandlers {
  open(id: number, path: string, format: RecordingFormat): void;
  /** `head`, `tail` and the grids are views into the batch, valid during the call only. */
  line(id: number, head: Uint8Array, grids: readonly Grid[], tail: Uint8Array): void;
  sync(id: number): void;
  close(id: number): void;
}

/** Enough for the batches in flight at a steady pace; more are dropped for the collector. */
const MAX_SPARE_BUFFERS = 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class BatchBuilder {
  #bytes: Uint8Array;
  #view: DataView;
  #used = 0;
  /** Buffers handed back after use, for the next batches. */
  readonly #spare: ArrayBuffer[] = [];

  constructor(private readonly capacity: number) {
    this.#bytes = new Uint8Array(capacity);
    this.#view = new DataView(this.#bytes.buffer);
  }

  /** Bytes packed so far. */
  get size(): number {
    return this.#used;
  }

  open(id: number, path: string, format: RecordingFormat): void {
    this.#reserve(10 + 3 * path.length);
    this.#head(OPEN, id);
    this.#bytes[this.#used++] = format === 'gzip' ? 0 : 1;
    this.#text(path);
  }

  line(id: number, head: string, grids: readonly Grid[], tail: string): void {
    this.#reserve(5 + 8 + 3 * (head.length + tail.length) + 2 + grids.length * GRID_CELLS);
    this.#head(LINE, id);
    this.#text(head);
    this.#text(tail);
    this.#view.setUint16(this.#used, grids.length, true);
    this.#used += 2;
    for (const grid of grids) {
      if (grid.length !== GRID_CELLS) throw new RangeError(`a grid has ${GRID_CELLS} cells, this one has ${grid.length}`);
      this.#bytes.set(grid, this.#used);
      this.#used += GRID_CELLS;
    }
  }

  sync(id: number): void {
    this.#reserve(5);
    this.#head(SYNC, id);
  }

  close(id: number): void {
    this.#reserve(5);
    this.#head(CLOSE, id);
  }

  /** The packed bytes' buffer, to transfer, and their length; the builder starts a new batch. */
  take(): { buffer: ArrayBuffer; length: number } {
    const taken = { buffer: this.#bytes.buffer as ArrayBuffer, length: this.#used };
    this.#bytes = new Uint8Array(this.#spare.pop() ?? new ArrayBuffer(this.capacity));
    this.#view = new DataView(this.#bytes.buffer);
    this.#used = 0;
    return taken;
  }

  /** A buffer taken earlier, now free again (a grown one too: the next batch may need it). */
  recycle(buffer: ArrayBuffer): void {
    if (this.#spare.length < MAX_SPARE_BUFFERS) this.#spare.push(buffer);
  }

  #head(code: number, id: number): void {
    this.#bytes[this.#used] = code;
    this.#view.setUint32(this.#used + 1, id, true);
    this.#used += 5;
  }

  /** Length (4 bytes), then the UTF-8 bytes; room for 3 bytes a UTF-16 unit was reserved. */
  #text(value: string): void {
    const { written } = encoder.encodeInto(value, this.#bytes.subarray(this.#used + 4));
    this.#view.setUint32(this.#used, written, true);
    this.#used += 4 + written;
  }

  /** Grows the batch when an operation would not fit (a long reasoning, many grids). */
  #reserve(most: number): void {
    if (this.#used + most <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this.#bytes.length, this.#used + most));
    grown.set(this.#bytes.subarray(0, this.#used));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/** Calls the handlers for each operation of a batch, in order. */
export function readBatch(buffer: ArrayBuffer, length: number, handlers: BatchHandlers): void {
  const bytes = new Uint8Array(buffer, 0, length);
  const view = new DataView(buffer, 0, length);
  let at = 0;
  const text = (): Uint8Array => {
    const size = view.getUint32(at, true);
    const slice = bytes.subarray(at + 4, at + 4 + size);
    at += 4 + size;
    return slice;
  };
  while (at < length) {
    const code = bytes[at]!;
    const id = view.getUint32(at + 1, true);
    at += 5;
    if (code === OPEN) {
      const format = bytes[at++] === 0 ? 'gzip' : 'jsonl';
      handlers.open(id, decoder.decode(text()), format);
    } else if (code === LINE) {
      const head = text();
      const tail = text();
      const count = view.getUint16(at, true);
      at += 2;
      const grids: Grid[] = [];
      for (let g = 0; g < count; g++, at += GRID_CELLS) grids.push(bytes.subarray(at, at + GRID_CELLS));
      handlers.line(id, head, grids, tail);
    } else if (code === SYNC) {
      handlers.sync(id);
    } else if (code === CLOSE) {
      handlers.close(id);
    } else {
      throw new Error(`recording batch: unknown operation ${code} at byte ${at - 5}`);
    }
  }
}
