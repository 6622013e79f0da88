/** Grid codec figures: the hand-written encoder and decoder against JSON.stringify/JSON.parse. */
import { Buffer } from 'node:buffer';
import { decodeGrid, encodeGrid, GRID_CELLS, gridToRows, type Grid } from '../src/protocol/index.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { timeInterleaved, type CallTiming } from './measure.ts';

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

/** One operation over grids: its figure is the mean over the grids of each grid's timing. */
interface Operation {
  grids: readonly Grid[];
  call: (grid: Grid, i: number) => unknown;
}

const ROUNDS = 15;

/**
 * Times every operation on every grid in interleaved rounds (see timeInterleaved), so the fastest round
 * of each comes from anywhere in the suite's ~10 seconds rather than from one stretch of them.
 */
function timeOperations(operations: readonly Operation[]): CallTiming[] {
  const calls = operations.flatMap((op) => op.grids.map((grid, i) => () => op.call(grid, i)));
  const timings = timeInterleaved(calls, { callsPerRound: 500, rounds: ROUNDS });
  let next = 0;
  return operations.map((op) => {
    const own = timings.slice(next, next + op.grids.length);
    next += op.grids.length;
    const mean = (pick: (t: CallTiming) => number) => own.reduce((sum, t) => sum + pick(t), 0) / own.length;
    return { fastest: mean((t) => t.fastest), median: mean((t) => t.median) };
  });
}

/** A codec figure: the fastest rounds' cost, with the median rounds' beside it. */
function timed(figure: string, timing: CallTiming, extra?: string): BenchFigure {
  const more = extra ? `; ${extra}` : '';
  const note = `fastest of ${ROUNDS} rounds; median round ${timing.median.toFixed(1)}${more}`;
  return { figure, value: timing.fastest, unit: 'µs/grid', note };
}

/** The four operations on `grids`, in figuresFor's order: encode, JSON.stringify, decode, JSON.parse. */
function operationsFor(grids: readonly Grid[]): Operation[] {
  const rows = grids.map(gridToRows);
  const texts = grids.map(encodeGrid);
  const bytes = texts.map((text) => Buffer.from(text));
  return [
    { grids, call: (grid) => encodeGrid(grid) },
    { grids, call: (_, i) => JSON.stringify(rows[i]) },
    { grids, call: (_, i) => decodeGrid(bytes[i]!) },
    { grids, call: (_, i) => JSON.parse(texts[i]!) },
  ];
}

/** Figures for the four operations' timings; targets only when asked. */
function figuresFor(label: string, timings: readonly CallTiming[], targets: boolean): BenchFigure[] {
  const [encode, stringify, decode, parse] = timings;
  if (encode === undefined || stringify === undefined || decode === undefined || parse === undefined) {
    throw new Error(`bench/codec.ts: ${label} has ${timings.length} timings, not one per operation of operationsFor`);
  }
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
    const catalog = operationsFor(gameFrames());
    // Every row different and half the cells two-digit: the encoder's worst case, for reference.
    const worst = operationsFor([mixedGrid()]);
    const timings = timeOperations([...catalog, ...worst]);
    return [...figuresFor('catalog first frames', timings.slice(0, 4), true), ...figuresFor('synthetic worst case', timings.slice(4), false)];
  },
};
export default suite;
