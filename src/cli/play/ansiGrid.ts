/**
 * A grid as true-colour terminal text: two grid rows per line with the upper-half block '▀' (foreground
 * the upper cell, background the lower), so 64×64 cells fit in 64 columns by 32 lines.
 */
import { GRID_SIZE, PALETTE_RGB, type Grid } from '../../protocol/index.ts';

const RESET = '\x1b[0m';

export function gridToAnsi(grid: Grid): string {
  const lines: string[] = [];
  for (let y = 0; y < GRID_SIZE; y += 2) {
    let line = '';
    let lastTop = -1;
    let lastBottom = -1;
    for (let x = 0; x < GRID_SIZE; x++) {
      const top = grid[y * GRID_SIZE + x]!;
      const bottom = grid[(y + 1) * GRID_SIZE + x]!;
      // Colour codes only where they change: a line is then a few hundred bytes, not 2,500.
      if (top !== lastTop) line += `\x1b[38;2;${PALETTE_RGB[top]!.join(';')}m`;
      if (bottom !== lastBottom) line += `\x1b[48;2;${PALETTE_RGB[bottom]!.join(';')}m`;
      lastTop = top;
      lastBottom = bottom;
      line += '▀';
    }
    lines.push(line + RESET);
  }
  return lines.join('\n');
}

/** The grid cell under a terminal character (1-based column and line) of a grid drawn at the top left. */
export function gridCellOfTerminal(column: number, line: number): { x: number; y: number } | null {
  const x = column - 1;
  // A character holds two grid rows; a click cannot tell which half, so it means the upper one.
  const y = (line - 1) * 2;
  if (x < 0 || x >= GRID_SIZE || y < 0 || y >= GRID_SIZE) return null;
  return { x, y };
}
