/**
 * A grid as text a language model reads well: one hex digit per cell (colour 0..f), each line led by
 * its row number, a ruler of column numbers on top. The letterbox is cropped: the colour that fills
 * most of the grid's border is named once, and only the smallest rectangle holding every other colour
 * is written. Consecutive identical rows are written once with their range (`18-26`), since games
 * scale their boards by whole factors and a cell often spans many rows.
 *
 * Lossless: decodeGridText(encodeGridText(grid)) is the grid again (the tests prove it), so a model
 * that reads carefully sees everything.
 */
import { GRID_CELLS, GRID_SIZE, type Grid } from 'arcbench';

const HEX = '0123456789abcdef';

export interface CropBox {
  /** The colour of every cell outside the box. */
  readonly outside: number;
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

/** The colour that fills most of the grid's outer border: the letterbox, when there is one. */
function borderColour(grid: Grid): number {
  const counts = new Array<number>(16).fill(0);
  const last = GRID_SIZE - 1;
  for (let i = 0; i < GRID_SIZE; i++) {
    // Cells are colours 0..15 (the protocol checks every grid), so each is an index of counts.
    counts[grid[i]!]!++;
    counts[grid[last * GRID_SIZE + i]!]!++;
    counts[grid[i * GRID_SIZE]!]!++;
    counts[grid[i * GRID_SIZE + last]!]!++;
  }
  return counts.indexOf(Math.max(...counts));
}

/** The box of every cell not of the letterbox colour; undefined when the whole grid is that colour. */
export function cropBox(grid: Grid): CropBox | undefined {
  const outside = borderColour(grid);
  let x0 = GRID_SIZE;
  let x1 = -1;
  let y0 = GRID_SIZE;
  let y1 = -1;
  for (let y = 0; y < GRID_SIZE; y++) {
    for (let x = 0; x < GRID_SIZE; x++) {
      if (grid[y * GRID_SIZE + x] === outside) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { outside, x0, x1, y0, y1 };
}

/** The character code of each colour's hex digit. */
const HEX_CODES = Uint8Array.from(HEX, (digit) => digit.charCodeAt(0));
/** One row's digits are written here and read out as one string: a string added to cell by cell was most of a turn's drawing time. */
const rowBuffer = Buffer.alloc(GRID_SIZE);

function rowText(grid: Grid, y: number, x0: number, x1: number): string {
  const start = y * GRID_SIZE;
  for (let x = x0; x <= x1; x++) rowBuffer[x - x0] = HEX_CODES[grid[start + x]!]!;
  return rowBuffer.toString('latin1', 0, x1 - x0 + 1);
}

/** True when rows a and b hold the same cells from x0 to x1. */
function sameRow(grid: Grid, a: number, b: number, x0: number, x1: number): boolean {
  for (let x = x0; x <= x1; x++) if (grid[a * GRID_SIZE + x] !== grid[b * GRID_SIZE + x]) return false;
  return true;
}

/** Two ruler lines: the tens of each column's x where it changes, then the units of every x. */
function ruler(x0: number, x1: number, labelWidth: number): string[] {
  let tens = '';
  let units = '';
  for (let x = x0; x <= x1; x++) {
    tens += x === x0 || x % 10 === 0 ? String(Math.floor(x / 10) % 10) : ' ';
    units += String(x % 10);
  }
  const pad = 'x'.padEnd(labelWidth);
  return [`${pad} ${tens.trimEnd()}`, `${pad} ${units}`];
}

export function encodeGridText(grid: Grid): string {
  const box = cropBox(grid);
  if (box === undefined) return `64x64 grid; every cell is colour ${hexDigit(grid[0]!)}`;
  const { outside, x0, x1, y0, y1 } = box;
  const cropped = x0 > 0 || y0 > 0 || x1 < GRID_SIZE - 1 || y1 < GRID_SIZE - 1;
  const head = cropped
    ? `64x64 grid, one hex digit per cell; showing x ${x0}-${x1}, y ${y0}-${y1}; every cell outside is colour ${hexDigit(outside)}`
    : '64x64 grid, one hex digit per cell; showing all of it';
  const rows: Array<{ label: string; text: string }> = [];
  for (let y = y0; y <= y1; ) {
    let last = y;
    while (last < y1 && sameRow(grid, y, last + 1, x0, x1)) last++;
    rows.push({ label: last === y ? String(y) : `${y}-${last}`, text: rowText(grid, y, x0, x1) });
    y = last + 1;
  }
  const width = Math.max(...rows.map((row) => row.label.length), 1);
  return [head, ...ruler(x0, x1, width), ...rows.map((row) => `${row.label.padEnd(width)} ${row.text}`)].join('\n');
}

const UNIFORM = /^64x64 grid; every cell is colour ([0-9a-f])$/;
const CROPPED = /^64x64 grid, one hex digit per cell; showing x (\d+)-(\d+), y (\d+)-(\d+); every cell outside is colour ([0-9a-f])$/;
const WHOLE = '64x64 grid, one hex digit per cell; showing all of it';
const ROW = /^(\d+)(?:-(\d+))? +([0-9a-f]+)$/;

/** The grid a text of encodeGridText describes; throws on text it did not write. */
export function decodeGridText(text: string): Grid {
  // split() gives at least one string, and a group that is not optional is set whenever its regex matched.
  const [head = '', ...lines] = text.split('\n');
  const uniform = UNIFORM.exec(head);
  if (uniform) return new Uint8Array(GRID_CELLS).fill(parseInt(uniform[1]!, 16));
  const cropped = CROPPED.exec(head);
  if (!cropped && head !== WHOLE) throw new SyntaxError(`not a grid text: ${JSON.stringify(head)}`);
  const x0 = cropped ? Number(cropped[1]) : 0;
  const x1 = cropped ? Number(cropped[2]) : GRID_SIZE - 1;
  const grid = new Uint8Array(GRID_CELLS).fill(cropped ? parseInt(cropped[5]!, 16) : 0);
  for (const line of lines.slice(2)) {
    const match = ROW.exec(line);
    const cells = match?.[3];
    if (!match || cells === undefined || cells.length !== x1 - x0 + 1) throw new SyntaxError(`not a grid row: ${JSON.stringify(line)}`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let y = first; y <= last; y++) {
      for (let x = x0; x <= x1; x++) grid[y * GRID_SIZE + x] = parseInt(cells[x - x0]!, 16);
    }
  }
  return grid;
}

/** The hex digit of a colour 0..15 (every cell of a checked grid is one). */
export const hexDigit = (colour: number): string => HEX[colour]!;
