/**
 * How long a grid is as the hex text LLM agents send (one digit a cell, cropped to what differs from
 * the border colour, identical consecutive rows written once, a ruler and a row label each): the size
 * the cost estimate's prompt model gives a frame. Counted, not built: the estimate needs only its length.
 */
const SIZE = 64;

export function gridTextChars(grid: Uint8Array): number {
  const border = borderColour(grid);
  let x0 = SIZE;
  let x1 = -1;
  let y0 = SIZE;
  let y1 = -1;
  for (let i = 0; i < SIZE * SIZE; i++) {
    if (grid[i] === border) continue;
    const x = i % SIZE;
    const y = (i - x) / SIZE;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const head = 100;
  if (x1 < 0) return head;
  const width = x1 - x0 + 1;
  let rows = 0;
  for (let y = y0; y <= y1; y++) if (y === y0 || !sameRow(grid, y, y - 1, x0, x1)) rows++;
  // Each line: a label of up to 5 characters, a space, the cells and its newline; two ruler lines.
  return head + (rows + 2) * (width + 7);
}

function sameRow(grid: Uint8Array, a: number, b: number, x0: number, x1: number): boolean {
  for (let x = x0; x <= x1; x++) if (grid[a * SIZE + x] !== grid[b * SIZE + x]) return false;
  return true;
}

function borderColour(grid: Uint8Array): number {
  const counts = new Array<number>(16).fill(0);
  for (let i = 0; i < SIZE; i++) {
    counts[grid[i]!]!++;
    counts[grid[(SIZE - 1) * SIZE + i]!]!++;
    counts[grid[i * SIZE]!]!++;
    counts[grid[i * SIZE + SIZE - 1]!]!++;
  }
  return counts.indexOf(Math.max(...counts));
}
