/**
 * Recording lines compressed to gzip as they are written, with the structure of the text known
 * instead of searched for. Between two steps most of a game's 64 grid rows stay the same, and games
 * draw scaled cells, so a row often repeats the one above: such a row is written as a copy of the
 * same row of the grid before (the previous grid of the step, else the last grid of the previous
 * line) or of the row above, without its text ever being made; its checksum is folded from the row
 * it copies. Only rows that changed get their text, written as copies of the runs they share with
 * the row they replace plus the bytes that differ, and so do the text before and after the grids
 * against the previous line's. zlib searching the same lines for matches cost about 20 µs a line,
 * more than a whole in-process step; this costs a few.
 *
 * What comes out is ordinary gzip of the very lines the plain writer writes: `zcat` gives them back.
 */
import { Buffer } from 'node:buffer';
import type { ActionInput, FrameResponse, Grid } from '../protocol/index.ts';
import { GRID_CELLS, GRID_SIZE, writeRow } from '../protocol/index.ts';
import { CRC_START, crcBytes, crcFold, finishCrc } from './gzip/crc32.ts';
import { FixedHuffmanGzip, MAX_DISTANCE } from './gzip/fixedHuffmanGzip.ts';
import { lineHead, lineTail } from './recordingLine.ts';

const COMMA = 44;
const OPEN = 91; // [
const CLOSE = 93; // ]
/** A row's text and its separator: `[` + 64 values of one or two digits + 63 commas + `]` + `,` or `]`. */
const MAX_ROW_PIECE = 2 + 2 * GRID_SIZE + (GRID_SIZE - 1) + 1;
const WORDS_PER_ROW = GRID_SIZE / 4;

/** One grid as written: its cells, and per row where its piece (text and separator) starts, its length and crc0. */
// Indexed by row y (0..63): the per-row code below reads these with `!`.
class WrittenGrid {
  readonly cells = new Uint8Array(GRID_CELLS);
  readonly words = new Uint32Array(this.cells.buffer);
  readonly start = new Float64Array(GRID_SIZE);
  readonly length = new Uint16Array(GRID_SIZE);
  readonly crc0 = new Uint32Array(GRID_SIZE);
}

/** Rows `ya` of `a` and `yb` of `b` hold the same 64 cells (compared as 16 words). */
function sameRow(a: Uint32Array, ya: number, b: Uint32Array, yb: number): boolean {
  for (let i = ya * WORDS_PER_ROW, j = yb * WORDS_PER_ROW, end = i + WORDS_PER_ROW; i < end; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

export class GzipRecordingEncoder {
  private readonly out = new FixedHuffmanGzip();
  private crc = CRC_START;
  /** The grid being written, and the one its rows are copied from (invalid before the first grid). */
  private current = new WrittenGrid();
  private reference = new WrittenGrid();
  private hasReference = false;
  private readonly rowText = Buffer.allocUnsafe(MAX_ROW_PIECE);
  private readonly referenceRowText = Buffer.allocUnsafe(MAX_ROW_PIECE);
  private readonly oneByte = new Uint8Array(1);
  /** The previous line's head and tail as bytes, and where they started. */
  private previousHead = new Text();
  private previousTail = new Text();
  private head = new Text();
  private tail = new Text();

  /** Compresses one line; its bytes are ready in completeBytes() (all but the last few bits, until syncFlush). */
  write(response: FrameResponse, sent: ActionInput, timestamp: string): void {
    this.writeLine(Buffer.from(lineHead(response, timestamp)), response.frame, Buffer.from(lineTail(response, sent)));
  }

  /** The same, from the line's head and tail as UTF-8 bytes (lineHead, lineTail) and its grids. */
  writeLine(head: Uint8Array, grids: readonly Grid[], tail: Uint8Array): void {
    this.writeText(this.head, head, this.previousHead);
    this.byte(OPEN);
    for (let g = 0; g < grids.length; g++) {
      if (g > 0) this.byte(COMMA);
      this.writeGrid(grids[g]!);
    }
    this.byte(CLOSE);
    this.writeText(this.tail, tail, this.previousTail);
    [this.head, this.previousHead] = [this.previousHead, this.head];
    [this.tail, this.previousTail] = [this.previousTail, this.tail];
  }

  completeBytes(): Uint8Array {
    return this.out.completeBytes();
  }

  /** Starts a new recording with the buffers of the last one, which stay the size they grew to. */
  reset(): void {
    this.out.reset();
    this.crc = CRC_START;
    this.hasReference = false;
    this.previousHead.length = 0;
    this.previousTail.length = 0;
  }

  consumed(): void {
    this.out.consumed();
  }

  syncFlush(): void {
    this.out.syncFlush();
  }

  /** The rest of the stream, trailer included; nothing may be written after. */
  finish(): Uint8Array {
    return this.out.finish(finishCrc(this.crc));
  }

  private byte(value: number): void {
    this.oneByte[0] = value;
    this.crc = crcBytes(this.crc, this.oneByte, 0, 1);
    this.out.literal(value);
  }

  private writeText(text: Text, value: Uint8Array, previous: Text): void {
    text.set(value, this.out.position);
    this.crc = crcBytes(this.crc, text.bytes, 0, text.length);
    this.writeAgainst(text.bytes, text.length, previous.bytes, previous.length, previous.start);
  }

  private writeGrid(grid: Grid): void {
    if (grid.length !== GRID_CELLS) throw new RangeError(`a grid has ${GRID_CELLS} cells, this one has ${grid.length}`);
    const current = this.current;
    current.cells.set(grid);
    this.byte(OPEN);
    for (let y = 0; y < GRID_SIZE; y++) {
      const start = this.out.position;
      current.start[y] = start;
      if (this.hasReference && sameRow(current.words, y, this.reference.words, y) && start - this.reference.start[y]! <= MAX_DISTANCE) {
        this.copyRow(y, this.reference, y, start);
      } else if (y > 0 && y < GRID_SIZE - 1 && sameRow(current.words, y, current.words, y - 1)) {
        // The row above has the same cells and the same separator (the last row's is `]`).
        this.copyRow(y, current, y - 1, start);
      } else {
        this.writeChangedRow(y);
      }
    }
    [this.current, this.reference] = [this.reference, this.current];
    this.hasReference = true;
  }

  private copyRow(y: number, from: WrittenGrid, fromY: number, start: number): void {
    const length = from.length[fromY]!;
    const crc0 = from.crc0[fromY]!;
    this.current.length[y] = length;
    this.current.crc0[y] = crc0;
    this.crc = crcFold(this.crc, length, crc0);
    this.out.copy(length, start - from.start[fromY]!);
  }

  /** A row with its own text: written against the reference's row (or the row above, in a first grid). */
  private writeChangedRow(y: number): void {
    const separator = y < GRID_SIZE - 1 ? COMMA : CLOSE;
    let length = writeRow(this.rowText, 0, this.current.cells, y);
    this.rowText[length++] = separator;
    const crc0 = crcBytes(0, this.rowText, 0, length);
    this.current.length[y] = length;
    this.current.crc0[y] = crc0;
    this.crc = crcFold(this.crc, length, crc0);
    const from = this.hasReference ? this.reference : y > 0 ? this.current : undefined;
    if (from === undefined) {
      this.out.literals(this.rowText, 0, length);
      return;
    }
    const fromY = from === this.reference ? y : y - 1;
    let fromLength = writeRow(this.referenceRowText, 0, from.cells, fromY);
    this.referenceRowText[fromLength++] = fromY < GRID_SIZE - 1 ? COMMA : CLOSE;
    this.writeAgainst(this.rowText, length, this.referenceRowText, fromLength, from.start[fromY]!);
  }

  /**
   * Writes `bytes[0, length)` (starting at the current position) against an earlier text `ref` that
   * started at `refStart` (no earlier text when `refLength` is 0): the prefix they share and the
   * suffix they share as copies, and between them, when both are the same length, runs of 3 or more
   * equal bytes as copies and the rest as literals.
   */
  private writeAgainst(bytes: Uint8Array, length: number, ref: Uint8Array, refLength: number, refStart: number): void {
    if (refLength === 0) {
      this.out.literals(bytes, 0, length);
      return;
    }
    const shortest = Math.min(length, refLength);
    let prefix = 0;
    while (prefix < shortest && bytes[prefix] === ref[prefix]) prefix++;
    let suffix = 0;
    while (suffix < shortest - prefix && bytes[length - 1 - suffix] === ref[refLength - 1 - suffix]) suffix++;
    const fromStart = this.out.position - refStart;
    const fromEnd = fromStart + length - refLength;
    this.copyOrLiterals(bytes, 0, prefix, fromStart);
    if (length === refLength) {
      let i = prefix;
      const end = length - suffix;
      while (i < end) {
        let same = i;
        while (same < end && bytes[same] === ref[same]) same++;
        if (same - i >= 3) {
          this.copyOrLiterals(bytes, i, same, fromStart);
          i = same;
        } else {
          this.out.literal(bytes[i]!);
          i++;
        }
      }
    } else {
      this.out.literals(bytes, prefix, length - suffix);
    }
    this.copyOrLiterals(bytes, length - suffix, length, fromEnd);
  }

  private copyOrLiterals(bytes: Uint8Array, start: number, end: number, distance: number): void {
    if (end - start >= 3 && distance <= MAX_DISTANCE) this.out.copy(end - start, distance);
    else if (end > start) this.out.literals(bytes, start, end);
  }
}

/** A piece of line text as UTF-8 bytes, in a buffer reused line after line. */
class Text {
  bytes = new Uint8Array(256);
  length = 0;
  start = 0;

  set(value: Uint8Array, start: number): void {
    if (value.length > this.bytes.length) this.bytes = new Uint8Array(2 * value.length);
    this.bytes.set(value);
    this.length = value.length;
    this.start = start;
  }
}
