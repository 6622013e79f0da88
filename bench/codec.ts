/** Grid codec figures: the hand-written encoder and decoder against JSON.stringify/JSON.parse. */
import { Buffer } from 'node:buffer';
import { decodeGrid, encodeGrid, GRID_CELLS, gridToRows, type Grid } from '../src/protocol/index.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { timeCalls, type CallTiming } from './measure.ts';

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

/** Mean µs per grid of `fn` over `grids`, in each grid's fastest round and in its median round. */
function perGrid(grids: readonly Grid[], fn: (grid: Grid, i: number) => unknown): CallTiming {
  let fastest = 0;
  let median = 0;
  grids.forEach((grid, i) => {
    const timing = timeCalls(() => fn(grid, i), { callsPerRound: 500, rounds: 15 });
    fastest += timing.fastest;
    median += timing.median;
  });
  return { fastest: fastest / grids.length, median: median / grids.length };
}

/** A codec figure: the fastest rounds' cost, with the median rounds' beside it. */
function timed(figure: string, timing: CallTiming, extra?: string): BenchFigure {
  const note = `fastest of 15 rounds; median round ${timing.median.toFixed(1)}` + (extra ? `; ${extra}` : '');
  return { figure, value: timing.fastest, unit: 'µs/grid', note };
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
    { ...timed(`grid encode, ${label}`, encode), ...(targets ? { target: { op: '<=', value: 15 } } : {}) },
    timed(`JSON.stringify of the same, ${label}`, stringify, `encode is ${(stringify.fastest / encode.fastest).toFixed(1)}× faster`),
    { ...timed(`grid decode from bytes, ${label}`, decode), ...(targets ? { target: { op: '<=', value: 40 } } : {}) },
    timed(`JSON.parse of the same, ${label}`, parse, `decode is ${(parse.fastest / decode.fastest).toFixed(1)}× faster`),
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
