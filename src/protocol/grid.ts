/**
 * The one grid type of the project: 64×64 colour indices 0..15, row-major (`y * 64 + x`).
 * Games draw into it, the service keeps it, agents read it; only the HTTP edge turns it into nested
 * arrays (see gridCodec.ts).
 */
export type Grid = Uint8Array;

export const GRID_SIZE = 64;
export const GRID_CELLS = GRID_SIZE * GRID_SIZE;
export const COLOUR_COUNT = 16;

/** docs/protocol.md §1: the palette every renderer uses, index → RGB hex. */
// biome-ignore format: two rows of eight read as a table; one colour a line does not
export const PALETTE_HEX: readonly string[] = [
  'FFFFFF', 'CCCCCC', '999999', '666666', '333333', '000000', 'E53AA3', 'FF7BCC',
  'F93C31', '1E93FF', '88D8F1', 'FFDC00', 'FF851B', '921231', '4FCC30', 'A356D6',
];

/** The palette as [r, g, b] triples, for PNG and terminal renderers. */
export const PALETTE_RGB: readonly (readonly [number, number, number])[] = PALETTE_HEX.map((hex) => [
  parseInt(hex.slice(0, 2), 16),
  parseInt(hex.slice(2, 4), 16),
  parseInt(hex.slice(4, 6), 16),
]);

export function createGrid(fill = 0): Grid {
  const grid = new Uint8Array(GRID_CELLS);
  if (fill !== 0) grid.fill(fill);
  return grid;
}

export function cellIndex(x: number, y: number): number {
  return y * GRID_SIZE + x;
}

export function gridsEqual(a: Grid, b: Grid): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Index of the first differing cell, or -1 when the grids are equal. */
export function firstDifference(a: Grid, b: Grid): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * A 53-bit FNV-1a style hash of a grid, as a number: cheap enough to call on every frame (agents
 * remember states by it) and wide enough that collisions among a run's states are negligible.
 */
export function gridHash(grid: Grid): number {
  // Two independent 32-bit FNV-1a lanes combined into a safe integer.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < grid.length; i++) {
    const v = grid[i]!;
    h1 = Math.imul(h1 ^ v, 0x01000193);
    h2 = Math.imul(h2 ^ (v + i), 0x5bd1e995);
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}

/** How many cells of each colour 0..15 a grid holds. */
export function colourCounts(grid: Grid): Uint32Array {
  const counts = new Uint32Array(COLOUR_COUNT);
  const words = wordsOf(grid);
  if (words === undefined) {
    for (let i = 0; i < grid.length; i++) counts[grid[i]!]!++;
    return counts;
  }
  // Four cells at a time: most of a grid is runs of one colour, and a word of four equal bytes is one
  // comparison instead of four counts (a third of the time; agents count on every click).
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    const first = word & 0xff;
    if (word === Math.imul(first, 0x01010101) >>> 0) counts[first]! += 4;
    else {
      const i = k << 2;
      counts[grid[i]!]!++;
      counts[grid[i + 1]!]!++;
      counts[grid[i + 2]!]!++;
      counts[grid[i + 3]!]!++;
    }
  }
  return counts;
}

/**
 * The index (row-major) of the n-th cell, counting from 0, whose colour is not `colour`; -1 when there
 * are no more than n of them. With colourCounts it picks a random cell off the background without
 * building the list of candidates on every click (that list was most of the random agent's time).
 */
export function nthCellNotOf(grid: Grid, colour: number, n: number): number {
  let start = 0;
  const words = wordsOf(grid);
  if (words !== undefined) {
    // Skip four background cells at a time; finish cell by cell in the word that holds the one.
    const background = Math.imul(colour, 0x01010101) >>> 0;
    for (let k = 0; k < words.length; k++, start += 4) {
      if (words[k] === background) continue;
      let others = 0;
      for (let i = start; i < start + 4; i++) if (grid[i] !== colour) others++;
      if (n < others) break;
      n -= others;
    }
  }
  for (let i = start; i < grid.length; i++) if (grid[i] !== colour && n-- === 0) return i;
  return -1;
}

/** The grid's cells as 32-bit words (four cells each), when its memory is aligned for it. */
function wordsOf(grid: Grid): Uint32Array | undefined {
  if ((grid.byteOffset & 3) !== 0 || (grid.length & 3) !== 0) return undefined;
  return new Uint32Array(grid.buffer, grid.byteOffset, grid.length >> 2);
}

/** The most common colour of a grid (the lowest on a tie): what a game paints as empty space. */
export function dominantColour(grid: Grid, counts: Uint32Array = colourCounts(grid)): number {
  let best = 0;
  for (let colour = 1; colour < COLOUR_COUNT; colour++) if (counts[colour]! > counts[best]!) best = colour;
  return best;
}
