/**
 * A grid as plain text, for output that must carry no colour codes: one line per row, each cell its
 * palette index as one hex digit (0–f), so 64 lines of 64 digits that a script can read back.
 */
import { GRID_SIZE, type Grid } from '../../protocol/index.ts';

const DIGITS = '0123456789abcdef';

export function gridToDigits(grid: Grid): string {
  const lines: string[] = [];
  for (let y = 0; y < GRID_SIZE; y++) {
    let line = '';
    for (let x = 0; x < GRID_SIZE; x++) line += DIGITS[grid[y * GRID_SIZE + x]!];
    lines.push(line);
  }
  return lines.join('\n');
}
