/**
 * What changed between two grids, as text: one line per row that changed, each a run of cells from a
 * starting x with their new colours (`y12 x3: aab`). Runs a couple of cells apart are joined, since the
 * label of a new run costs more tokens than the unchanged cells it would skip. Most actions move a
 * sprite or two, so a diff is a few lines where the whole grid is sixty.
 *
 * Lossless: applyGridDiff(before, encodeGridDiff(before, after)) is `after` (the tests prove it).
 */
import { GRID_CELLS, GRID_SIZE, type Grid } from 'arcbench';
import { hexDigit } from './frameText.ts';

/** Unchanged cells between two changes that still join one run. */
const JOIN_GAP = 2;

export const NO_CHANGE = 'no cell changed';

function rowRuns(before: Grid, after: Grid, y: number): Array<{ x: number; end: number }> {
  const runs: Array<{ x: number; end: number }> = [];
  for (let x = 0; x < GRID_SIZE; x++) {
    const i = y * GRID_SIZE + x;
    if (before[i] === after[i]) continue;
    const previous = runs.at(-1);
    if (previous !== undefined && x - previous.end - 1 <= JOIN_GAP) previous.end = x;
    else runs.push({ x, end: x });
  }
  return runs;
}

/** The changed cells of `after` against `before`; NO_CHANGE when the grids are equal. */
export function encodeGridDiff(before: Grid, after: Grid): string {
  const lines: string[] = [];
  let changed = 0;
  for (let y = 0; y < GRID_SIZE; y++) {
    for (const run of rowRuns(before, after, y)) {
      let cells = '';
      for (let x = run.x; x <= run.end; x++) {
        const i = y * GRID_SIZE + x;
        cells += hexDigit(after[i]!);
        if (before[i] !== after[i]) changed++;
      }
      lines.push(`y${y} x${run.x}: ${cells}`);
    }
  }
  if (lines.length === 0) return NO_CHANGE;
  return [`${changed} cell${changed === 1 ? '' : 's'} changed (row y, from column x, the new colours in hex):`, ...lines].join('\n');
}

const RUN = /^y(\d+) x(\d+): ([0-9a-f]+)$/;

/** `before` with a diff of encodeGridDiff applied; throws on text it did not write. */
export function applyGridDiff(before: Grid, diff: string): Grid {
  const after = new Uint8Array(before);
  if (diff === NO_CHANGE) return after;
  const [, ...lines] = diff.split('\n');
  for (const line of lines) {
    const match = RUN.exec(line);
    if (!match) throw new SyntaxError(`not a diff line: ${JSON.stringify(line)}`);
    // The three groups are not optional: each is set when RUN matched.
    const y = match[1]!;
    const x = match[2]!;
    const cells = match[3]!;
    const start = Number(x) + Number(y) * GRID_SIZE;
    if (Number(x) + cells.length > GRID_SIZE || start + cells.length > GRID_CELLS) throw new RangeError(`diff line runs off the grid: ${line}`);
    for (let k = 0; k < cells.length; k++) after[start + k] = parseInt(cells[k]!, 16);
  }
  return after;
}
