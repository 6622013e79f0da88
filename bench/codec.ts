/** Grid codec figures: the hand-written encoder and decoder against JSON.stringify/JSON.parse. */
import { Buffer } from 'node:buffer';
import { decodeGrid, encodeGrid, GRID_CELLS, gridToRows } from '../src/protocol/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { microsecondsPerCall } from './measure.ts';

/** A grid with every colour and both one- and two-digit values: the costlier case for the codec. */
function mixedGrid(): Uint8Array {
  const grid = new Uint8Array(GRID_CELLS);
  for (let i = 0; i < GRID_CELLS; i++) grid[i] = (i * 7 + (i >> 6)) % 16;
  return grid;
}

const suite: BenchSuite = {
  name: 'codec',
  async run(): Promise<BenchFigure[]> {
    const grid = mixedGrid();
    const rows = gridToRows(grid);
    const text = encodeGrid(grid);
    const bytes = Buffer.from(text);
    const encode = microsecondsPerCall(() => encodeGrid(grid));
    const decode = microsecondsPerCall(() => decodeGrid(bytes));
    const stringify = microsecondsPerCall(() => JSON.stringify(rows));
    const parse = microsecondsPerCall(() => JSON.parse(text));
    return [
      { figure: 'grid encode', value: encode, unit: 'µs/grid', target: { op: '<=', value: 15 } },
      { figure: 'grid encode, JSON.stringify of the same grid', value: stringify, unit: 'µs/grid' },
      { figure: 'grid decode (from bytes)', value: decode, unit: 'µs/grid', target: { op: '<=', value: 40 } },
      { figure: 'grid decode, JSON.parse of the same grid', value: parse, unit: 'µs/grid' },
    ];
  },
};
export default suite;
