/** Grid codec figures: the hand-written encoder and decoder against JSON.stringify/JSON.parse. */
import { Buffer } from 'node:buffer';
import { decodeGrid, encodeGrid, GRID_CELLS, gridToRows, type Grid } from '../src/protocol/index.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { microsecondsPerCall } from './measure.ts';

/** A grid with every colour and both one- and two-digit values: the costlier case for the codec. */
function mixedGrid(): Uint8Array {
  const grid = new Uint8Array(GRID_CELLS);
  for (let i = 0; i < GRID_CELLS; i++) grid[i] = (i * 7 + (i >> 6)) % 16;
  return grid;
}

/** The first frame of every catalog game: what actually crosses the wire. */
function gameFrames(): Grid[] {
  return gameCatalog().map((game) => game.start().frame());
}

/** Mean µs per grid of `fn` over `grids`, each timed as the median of rounds. */
function perGrid(grids: readonly Grid[], fn: (grid: Grid, i: number) => unknown): number {
  let total = 0;
  grids.forEach((grid, i) => (total += microsecondsPerCall(() => fn(grid, i), { callsPerRound: 1000, rounds: 7 })));
  return total / grids.length;
}

function figuresFor(label: string, grids: readonly Grid[], targets: boolean): BenchFigure[] {
  const rows = grids.map(gridToRows);
  const texts = grids.map(encodeGrid);
  const bytes = texts.map((text) => Buffer.from(text));
  const encode = perGrid(grids, (grid) => encodeGrid(grid));
  const decode = perGrid(grids, (_, i) => decodeGrid(bytes[i]));
  const stringify = perGrid(grids, (_, i) => JSON.stringify(rows[i]));
  const parse = perGrid(grids, (_, i) => JSON.parse(texts[i]));
  return [
    { figure: `grid encode, ${label}`, value: encode, unit: 'µs/grid', ...(targets ? { target: { op: '<=', value: 15 } } : {}) },
    { figure: `JSON.stringify of the same, ${label}`, value: stringify, unit: 'µs/grid', note: `encode is ${(stringify / encode).toFixed(1)}× faster` },
    { figure: `grid decode from bytes, ${label}`, value: decode, unit: 'µs/grid', ...(targets ? { target: { op: '<=', value: 40 } } : {}) },
    { figure: `JSON.parse of the same, ${label}`, value: parse, unit: 'µs/grid', note: `decode is ${(parse / decode).toFixed(1)}× faster` },
  ];
}

const suite: BenchSuite = {
  name: 'codec',
  async run(): Promise<BenchFigure[]> {
    return [
      ...figuresFor('catalog first frames', gameFrames(), true),
      // Every row different and half the cells two-digit: the encoder's worst case, for reference.
      ...figuresFor('synthetic worst case', [mixedGrid()], false),
    ];
  },
};
export default suite;
