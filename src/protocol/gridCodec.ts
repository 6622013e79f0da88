/**
 * The grid codec of the HTTP edge: `Uint8Array(4096)` grids to the wire's nested arrays (64 rows of 64
 * integers 0..15) and back, written by hand. JSON.stringify/JSON.parse of a 64×64 array cost several
 * times more than these direct loops, and frames are on every action's path.
 *
 * Decoding has a strict fast path for the canonical form (plain digits, optional JSON whitespace) and a
 * slow path (JSON.parse + gridFromRows) that accepts any valid JSON spelling and produces the precise
 * error message when the input is not a grid.
 */
import { ArcbenchError } from '../errors.ts';
import { Buffer } from 'node:buffer';
import { COLOUR_COUNT, GRID_CELLS, GRID_SIZE, type Grid } from './grid.ts';

/** The most bytes one encoded grid can take: 64 rows of 64 two-digit values with separators. */
export const MAX_ENCODED_GRID_BYTES = 2 + GRID_SIZE * (2 + GRID_SIZE * 2 + (GRID_SIZE - 1)) + (GRID_SIZE - 1);

const COMMA = 44;
const OPEN = 91; // [
const CLOSE = 93; // ]
const ZERO = 48;
const SPACE = 32; // every JSON whitespace byte is at most this

export class GridCodecError extends ArcbenchError {
  constructor(message: string) {
    super('GRID_CODEC', message);
  }
}

/**
 * Writes the JSON text of one grid into `out` at `pos` as ASCII bytes and returns the end position.
 * `out` needs MAX_ENCODED_GRID_BYTES free from `pos`.
 *
 * Games draw logical cells scaled by an integer factor, so most display rows repeat the row above
 * (52 to 57 of 63 in the catalog's frames), in runs of several. A run is written once and then copied
 * from the bytes just written, doubling the copied stretch each time (a run of 8 takes 3 copies, not
 * 7). Rows are compared as 8 doubles when the grid is 8-byte aligned (as every grid the games and the
 * decoder make is); an unaligned grid has every row encoded.
 */
export function writeGrid(out: Uint8Array, pos: number, grid: Grid): number {
  if (grid.length !== GRID_CELLS) throw new GridCodecError(`a grid has ${GRID_CELLS} cells, this one has ${grid.length}`);
  const words = (grid.byteOffset & 7) === 0 ? new Float64Array(grid.buffer, grid.byteOffset, GRID_CELLS >> 3) : undefined;
  out[pos++] = OPEN;
  for (let y = 0; y < GRID_SIZE; ) {
    const rowStart = pos;
    pos = writeRow(out, pos, grid, y);
    let repeats = 0;
    if (words !== undefined) while (y + repeats + 1 < GRID_SIZE && sameRows(words, grid, y, y + repeats + 1)) repeats++;
    if (repeats > 0) pos = repeatRow(out, rowStart, pos, repeats);
    y += repeats + 1;
    out[pos++] = y < GRID_SIZE ? COMMA : CLOSE;
  }
  return pos;
}

/**
 * Appends `,row` `repeats` times after the row text at [rowStart, rowEnd); returns the end position.
 * One `,row` is written, then repeated.
 */
function repeatRow(out: Uint8Array, rowStart: number, rowEnd: number, repeats: number): number {
  out[rowEnd] = COMMA;
  out.copyWithin(rowEnd + 1, rowStart, rowEnd);
  const unit = rowEnd - rowStart + 1;
  repeatBlock(out, rowEnd, unit, repeats - 1);
  return rowEnd + repeats * unit;
}

/**
 * Appends `count` copies of the `length` bytes at `start` right after them, copying the stretch already
 * written onto its end until there are enough: a run of 8 takes 3 copies, not 7. Both codecs repeat rows
 * this way (the encoder their text, the decoder their cells).
 */
function repeatBlock(array: Uint8Array, start: number, length: number, count: number): void {
  let written = 0;
  while (written < count) {
    const more = Math.min(written + 1, count - written);
    array.copyWithin(start + (1 + written) * length, start, start + more * length);
    written += more;
  }
}

/** Which byte of a double holds its sign bit: 7 on little-endian machines, 0 on big-endian ones. */
const SIGN_BYTE = new Uint8Array(new Float64Array([-0]).buffer).indexOf(0x80);

/**
 * Rows `a` and `b` hold the same 64 cells; `words` is the grid as 512 doubles. Comparing doubles reads
 * half as often as comparing 32-bit words, and is a bitwise compare for all but two patterns: NaN never
 * equals itself (the rows then count as different, and are encoded and checked as such), and -0 equals
 * +0, which differ only in the byte holding the sign, so that byte is compared when a group is zero.
 */
function sameRows(words: Float64Array, grid: Grid, a: number, b: number): boolean {
  const DOUBLES_PER_ROW = GRID_SIZE >> 3;
  for (let i = a * DOUBLES_PER_ROW, j = b * DOUBLES_PER_ROW, end = i + DOUBLES_PER_ROW; i < end; i++, j++) {
    const value = words[i];
    if (value !== words[j]) return false;
    if (value === 0 && grid[i * 8 + SIGN_BYTE] !== grid[j * 8 + SIGN_BYTE]) return false;
  }
  return true;
}

/**
 * Writes row `y` as `[v,v,…]`; returns the end position. The first cell is written before the loop so
 * the loop has no first-cell branch, and the error is built out of line: both measured about a tenth of
 * the encoder's time. (The cell's few lines stay written out twice on purpose: a shared helper, or a
 * comma after every cell with the last one turned into the bracket, each cost 6 to 15% in the bench.)
 */
export function writeRow(out: Uint8Array, pos: number, grid: Grid, y: number): number {
  const start = y * GRID_SIZE;
  out[pos++] = OPEN;
  let v = grid[start]!;
  if (v < 10) {
    out[pos++] = ZERO + v;
  } else if (v < COLOUR_COUNT) {
    out[pos++] = ZERO + 1;
    out[pos++] = ZERO + v - 10;
  } else {
    throwBadColour(0, y, v);
  }
  for (let x = 1; x < GRID_SIZE; x++) {
    v = grid[start + x]!;
    out[pos++] = COMMA;
    if (v < 10) {
      out[pos++] = ZERO + v;
    } else if (v < COLOUR_COUNT) {
      out[pos++] = ZERO + 1;
      out[pos++] = ZERO + v - 10;
    } else {
      throwBadColour(x, y, v);
    }
  }
  out[pos++] = CLOSE;
  return pos;
}

function throwBadColour(x: number, y: number, v: number): never {
  throw new GridCodecError(`cell (${x}, ${y}) holds ${v}; colours run from 0 to 15`);
}

const scratch = Buffer.allocUnsafe(MAX_ENCODED_GRID_BYTES);

/** One grid as JSON text: `[[0,1,…],…]`. */
export function encodeGrid(grid: Grid): string {
  const end = writeGrid(scratch, 0, grid);
  return scratch.toString('latin1', 0, end);
}

/** Several grids as the JSON text of the wire's `frame` field: `[[[…]…],…]`. */
export function encodeFrames(grids: readonly Grid[]): string {
  const out = Buffer.allocUnsafe(2 + grids.length * (MAX_ENCODED_GRID_BYTES + 1));
  const end = writeFrames(out, 0, grids);
  return out.toString('latin1', 0, end);
}

/** Writes the `frame` array (JSON text of all grids) into `out`; returns the end position. */
export function writeFrames(out: Uint8Array, pos: number, grids: readonly Grid[]): number {
  out[pos++] = OPEN;
  for (let i = 0; i < grids.length; i++) {
    if (i !== 0) out[pos++] = COMMA;
    pos = writeGrid(out, pos, grids[i]!);
  }
  out[pos++] = CLOSE;
  return pos;
}

/** The grid as plain nested arrays (for JSON.stringify users, recordings read by other tools, tests). */
export function gridToRows(grid: Grid): number[][] {
  const rows: number[][] = new Array(GRID_SIZE);
  for (let y = 0; y < GRID_SIZE; y++) rows[y] = Array.from(grid.subarray(y * GRID_SIZE, (y + 1) * GRID_SIZE));
  return rows;
}

/**
 * Validates a parsed JSON value as a grid and copies it into a new Uint8Array. `where` names the value
 * in error messages (e.g. `frame[1]`).
 */
export function gridFromRows(rows: unknown, where = 'grid'): Grid {
  if (!Array.isArray(rows)) throw new GridCodecError(`${where}: expected an array of ${GRID_SIZE} rows, got ${describe(rows)}`);
  if (rows.length !== GRID_SIZE) throw new GridCodecError(`${where}: expected ${GRID_SIZE} rows, got ${rows.length}`);
  const grid = new Uint8Array(GRID_CELLS);
  for (let y = 0; y < GRID_SIZE; y++) {
    const row: unknown = rows[y];
    if (!Array.isArray(row)) throw new GridCodecError(`${where}[${y}]: expected a row of ${GRID_SIZE} colours, got ${describe(row)}`);
    if (row.length !== GRID_SIZE) throw new GridCodecError(`${where}[${y}]: expected ${GRID_SIZE} colours, got ${row.length}`);
    for (let x = 0; x < GRID_SIZE; x++) {
      const v: unknown = row[x];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= COLOUR_COUNT) {
        throw new GridCodecError(`${where}[${y}][${x}]: expected an integer colour 0..15, got ${describe(v)}`);
      }
      grid[y * GRID_SIZE + x] = v;
    }
  }
  return grid;
}

/** Validates a parsed `frame` value (an array of grids). At least one grid (docs/protocol.md §3). */
export function framesFromRows(frames: unknown, where = 'frame'): Grid[] {
  if (!Array.isArray(frames)) throw new GridCodecError(`${where}: expected an array of grids, got ${describe(frames)}`);
  if (frames.length === 0) throw new GridCodecError(`${where}: expected at least one grid, got none`);
  return frames.map((rows, i) => gridFromRows(rows, `${where}[${i}]`));
}

/**
 * JSON text as a Buffer of UTF-8 bytes (a view, never a copy, of given bytes): the decoders scan bytes,
 * which is faster than charCodeAt on a string.
 */
export function jsonBytes(input: string | Uint8Array): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  return Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}

/** Decodes the JSON text (string or UTF-8 bytes) of one grid. */
export function decodeGrid(input: string | Uint8Array): Grid {
  const bytes = jsonBytes(input);
  const grid = new Uint8Array(GRID_CELLS);
  const end = readGridFast(bytes, viewOf(bytes), skipSpace(bytes, 0), grid);
  if (end >= 0 && skipSpace(bytes, end) === bytes.length) return grid;
  return gridFromRows(parseJsonText(bytes, 'grid'));
}

/** Decodes the JSON text (string or UTF-8 bytes) of a `frame` value (an array of grids). */
export function decodeFrames(input: string | Uint8Array): Grid[] {
  const bytes = jsonBytes(input);
  const result = readFramesFast(bytes, skipSpace(bytes, 0));
  if (result !== undefined && skipSpace(bytes, result.end) === bytes.length) return result.grids;
  return framesFromRows(parseJsonText(bytes, 'frame'));
}

/**
 * Fast path for a `frame` value starting at `pos`: the grids and the position after the closing
 * bracket, or undefined when the text is not in canonical form (the caller then takes the slow path).
 */
export function readFramesFast(text: Buffer, pos: number): { grids: Grid[]; end: number } | undefined {
  if (pos >= text.length || text[pos] !== OPEN) return undefined;
  const grids: Grid[] = [];
  const words = viewOf(text);
  let i = skipSpace(text, pos + 1);
  if (i >= text.length || text[i] === CLOSE) return undefined; // no grid: the slow path reports it
  for (;;) {
    const grid = new Uint8Array(GRID_CELLS);
    i = readGridFast(text, words, i, grid);
    if (i < 0) return undefined;
    grids.push(grid);
    i = skipSpace(text, i);
    if (i >= text.length) return undefined;
    const c = text[i];
    if (c === CLOSE) return { grids, end: i + 1 };
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/**
 * Reads one canonical grid at `pos` into `grid`; the end position, or -1 if not canonical. Every read
 * stays inside the array: an out-of-bounds read on a typed array makes V8 deoptimize the whole loop.
 * A row whose text is byte for byte the row before's is not parsed again: game frames repeat most rows
 * (see writeGrid), so after each parsed row the rows that repeat its text are counted, then its cells
 * are copied to all of them at once.
 */
function readGridFast(text: Buffer, words: DataView, pos: number, grid: Grid): number {
  const limit = text.length;
  let i = pos;
  if (i >= limit || text[i++] !== OPEN) return -1;
  for (let y = 0; y < GRID_SIZE; ) {
    if (i < limit && text[i]! <= SPACE) i = skipSpace(text, i);
    const rowStart = i;
    i = readRowFast(text, i, grid, y * GRID_SIZE);
    if (i < 0) return -1;
    const rowLength = i - rowStart;
    let repeats = 0;
    for (;;) {
      if (i < limit && text[i]! <= SPACE) i = skipSpace(text, i);
      if (i >= limit) return -1;
      if (y + repeats === GRID_SIZE - 1) {
        if (text[i++] !== CLOSE) return -1;
        break;
      }
      if (text[i++] !== COMMA) return -1;
      if (i < limit && text[i]! <= SPACE) i = skipSpace(text, i);
      if (i + rowLength > limit || !sameText(words, rowStart, i, rowLength)) break;
      i += rowLength;
      repeats++;
    }
    if (repeats > 0) repeatBlock(grid, y * GRID_SIZE, GRID_SIZE, repeats);
    y += repeats + 1;
  }
  return i;
}

/**
 * The `length` bytes at `b` equal those at `a`, which hold a row already parsed; both ranges lie inside
 * `words`. Compared eight bytes at a time as doubles: a parsed row is ASCII text without NUL bytes, so
 * each of its doubles is finite and non-zero, and for those `===` holds exactly when the bits match.
 */
function sameText(words: DataView, a: number, b: number, length: number): boolean {
  let k = 0;
  for (; k + 8 <= length; k += 8) if (words.getFloat64(a + k, true) !== words.getFloat64(b + k, true)) return false;
  for (; k < length; k++) if (words.getUint8(a + k) !== words.getUint8(b + k)) return false;
  return true;
}

/** A DataView of the same bytes as `text`. */
function viewOf(text: Buffer): DataView {
  return new DataView(text.buffer, text.byteOffset, text.byteLength);
}

/** Reads one canonical row `[v,…]` at `pos` into grid cells from `cell`; the end position, or -1. */
function readRowFast(text: Buffer, pos: number, grid: Grid, cell: number): number {
  const limit = text.length;
  let i = pos;
  if (i >= limit || text[i++] !== OPEN) return -1;
  for (let x = 0; x < 64; x++) {
    // A cell is at least a digit and a separator; a second digit is checked before it is read.
    if (i + 2 > limit) return -1;
    let c = text[i]!;
    if (c <= SPACE) {
      i = skipSpace(text, i);
      if (i + 2 > limit) return -1;
      c = text[i]!;
    }
    let v = c - ZERO;
    if (v < 0 || v > 9) return -1;
    c = text[++i]!;
    if (c >= ZERO && c <= ZERO + 9) {
      if (v !== 1 || c > ZERO + 5) return -1; // a leading zero, or a value above 15
      v = 10 + c - ZERO;
      if (++i >= limit) return -1;
      c = text[i]!;
    }
    grid[cell++] = v;
    if (c <= SPACE) {
      i = skipSpace(text, i);
      if (i >= limit) return -1;
      c = text[i]!;
    }
    if (c !== (x === 63 ? CLOSE : COMMA)) return -1;
    i++;
  }
  return i;
}

/** The first position at or after `pos` that is not JSON whitespace (text.length at the end). */
export function skipSpace(text: Uint8Array, pos: number): number {
  const limit = text.length;
  let i = pos;
  while (i < limit) {
    const c = text[i];
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else break;
  }
  return i;
}

function parseJsonText(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new GridCodecError(`${what}: not valid JSON (${(error as Error).message})`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)}`;
  if (typeof value === 'number') return String(value);
  return typeof value;
}
