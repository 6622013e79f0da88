/**
 * The grid helpers agents count and pick cells with: they read grids four cells at a time when the
 * memory allows, so each is checked against the plain cell-by-cell answer, on grids aligned or not and
 * drawn as games draw them (runs of one colour) or at random.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLOUR_COUNT, colourCounts, dominantColour, GRID_CELLS, type Grid, nthCellNotOf } from '../src/protocol/index.ts';

/** A grid of runs of one colour (as games paint), placed `offset` bytes into its buffer (unaligned when not a multiple of 4). */
const gridArbitrary = fc
  .record({
    runs: fc.array(fc.record({ colour: fc.integer({ min: 0, max: COLOUR_COUNT - 1 }), length: fc.integer({ min: 1, max: 300 }) }), {
      minLength: 1,
      maxLength: 40,
    }),
    noise: fc.array(fc.record({ at: fc.nat(GRID_CELLS - 1), colour: fc.integer({ min: 0, max: COLOUR_COUNT - 1 }) }), { maxLength: 30 }),
    offset: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ runs, noise, offset }): Grid => {
    const grid = new Uint8Array(new ArrayBuffer(GRID_CELLS + offset), offset, GRID_CELLS);
    let at = 0;
    for (let r = 0; at < GRID_CELLS; r = (r + 1) % runs.length) {
      const { colour, length } = runs[r]!;
      grid.fill(colour, at, Math.min(GRID_CELLS, at + length));
      at += length;
    }
    for (const { at: cell, colour } of noise) grid[cell] = colour;
    return grid;
  });

function countsCellByCell(grid: Grid): number[] {
  const counts = new Array<number>(COLOUR_COUNT).fill(0);
  for (const cell of grid) counts[cell]!++;
  return counts;
}

describe('grid cell helpers', () => {
  it('colourCounts and dominantColour give the cell-by-cell answer, aligned or not', () => {
    fc.assert(
      fc.property(gridArbitrary, (grid) => {
        const counts = countsCellByCell(grid);
        expect([...colourCounts(grid)]).toEqual(counts);
        expect(dominantColour(grid)).toBe(counts.indexOf(Math.max(...counts)));
      }),
    );
  });

  it('nthCellNotOf finds the n-th cell of another colour as the list of them would, and -1 past its end', () => {
    fc.assert(
      fc.property(gridArbitrary, fc.integer({ min: 0, max: COLOUR_COUNT - 1 }), fc.nat(GRID_CELLS), (grid, colour, pick) => {
        const others: number[] = [];
        grid.forEach((cell, i) => {
          if (cell !== colour) others.push(i);
        });
        const n = others.length === 0 ? pick : pick % (others.length + 1);
        expect(nthCellNotOf(grid, colour, n)).toBe(others[n] ?? -1);
      }),
    );
  });

  it('nthCellNotOf on a grid of one colour: none of other colours, and the last cell when only it differs', () => {
    const grid = new Uint8Array(GRID_CELLS).fill(5);
    expect(nthCellNotOf(grid, 5, 0)).toBe(-1);
    grid[GRID_CELLS - 1] = 0;
    expect(nthCellNotOf(grid, 5, 0)).toBe(GRID_CELLS - 1);
    expect(nthCellNotOf(grid, 5, 1)).toBe(-1);
  });
});
