/**
 * Lamp Grid: click a lamp (ACTION6) and it flips, together with the lamps directly above, below, left
 * and right of it; gaps in the grid are not lamps and flip nothing. Light every lamp.
 *
 * The solver is algebra, not search: a click is its own inverse and clicks commute, so a solution is a
 * set of lamps, found by Gaussian elimination over GF(2); the fewest clicks is the lightest solution,
 * found by trying every combination of the null space (small for these boards).
 */
import { CLICK_ACTION_ID } from '../../protocol/index.ts';
import { parseAsciiMap } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { lampGridLevels } from './levels.ts';

export interface LampLevel {
  readonly width: number;
  readonly height: number;
  /** 1 where the cell holds a lamp. */
  readonly isLamp: Uint8Array;
  /** 1 where a lamp starts lit. */
  readonly startLit: Uint8Array;
  /** Lamp cells in row-major order. */
  readonly lampCells: readonly number[];
}

export interface LampState {
  lit: Uint8Array;
  unlit: number;
}

const GAP_COLOUR = 5;
const LIT_COLOUR = 11;
const UNLIT_COLOUR = 3;

function parseLampLevel(text: string): LampLevel {
  const map = parseAsciiMap(text);
  const size = map.width * map.height;
  const isLamp = new Uint8Array(size);
  const startLit = new Uint8Array(size);
  const lampCells: number[] = [];
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const char = map.at(x, y);
      if (!'o* '.includes(char)) throw new Error(`unknown cell '${char}' at ${x},${y}; use o (unlit lamp), * (lit lamp) or space (gap)`);
      const i = y * map.width + x;
      if (char !== ' ') {
        isLamp[i] = 1;
        lampCells.push(i);
      }
      if (char === '*') startLit[i] = 1;
    }
  }
  if (lampCells.length > 30) throw new Error(`a level holds at most 30 lamps (the solver packs them in one integer), found ${lampCells.length}`);
  return { width: map.width, height: map.height, isLamp, startLit, lampCells };
}

function unlitCount(level: LampLevel, lit: Uint8Array): number {
  let unlit = 0;
  for (const cell of level.lampCells) if (lit[cell] === 0) unlit++;
  return unlit;
}

/** Flips the lamp at (x, y) and its lamp neighbours; returns how the unlit count changed. */
function flip(level: LampLevel, lit: Uint8Array, x: number, y: number): number {
  let change = 0;
  const flipOne = (cx: number, cy: number): void => {
    if (cx < 0 || cy < 0 || cx >= level.width || cy >= level.height) return;
    const i = cy * level.width + cx;
    if (level.isLamp[i] === 0) return;
    lit[i]! ^= 1;
    change += lit[i] === 1 ? -1 : 1;
  };
  flipOne(x, y);
  flipOne(x, y - 1);
  flipOne(x, y + 1);
  flipOne(x - 1, y);
  flipOne(x + 1, y);
  return change;
}

/**
 * The fewest clicks that light every lamp (see the file comment for why this is optimal). Over 60 lines
 * (formatting spread its neighbour list): building the GF(2) system, eliminating and searching the free
 * clicks read best as one piece.
 */
function lightestSolution(level: LampLevel): Move[] {
  const n = level.lampCells.length;
  const indexOfCell = new Map(level.lampCells.map((cell, index) => [cell, index]));
  // Row r of the system: which clicks flip lamp r, plus (bit n) whether lamp r must flip.
  const rows: number[] = level.lampCells.map((cell) => {
    const x = cell % level.width;
    const y = (cell - x) / level.width;
    let row = level.startLit[cell] === 0 ? 1 << n : 0;
    for (const [nx, ny] of [
      [x, y],
      [x, y - 1],
      [x, y + 1],
      [x - 1, y],
      [x + 1, y],
    ] as const) {
      if (nx < 0 || ny < 0 || nx >= level.width || ny >= level.height) continue;
      const other = indexOfCell.get(ny * level.width + nx);
      if (other !== undefined) row |= 1 << other;
    }
    return row;
  });
  const pivotColumns: number[] = [];
  let rank = 0;
  for (let column = 0; column < n && rank < rows.length; column++) {
    const pivot = rows.findIndex((row, index) => index >= rank && (row & (1 << column)) !== 0);
    if (pivot < 0) continue;
    const pivotRow = rows[pivot]!;
    rows[pivot] = rows[rank]!;
    rows[rank] = pivotRow;
    rows.forEach((row, r) => {
      if (r !== rank && (row & (1 << column)) !== 0) rows[r] = row ^ pivotRow;
    });
    pivotColumns.push(column);
    rank++;
  }
  if (rows.slice(rank).some((row) => row !== 0)) throw new Error('level has no solution: no set of clicks lights every lamp');
  const freeColumns = [...Array(n).keys()].filter((column) => !pivotColumns.includes(column));
  let best = -1;
  let bestWeight = Infinity;
  for (let choice = 0; choice < 1 << freeColumns.length; choice++) {
    let clicks = 0;
    freeColumns.forEach((column, bit) => {
      if ((choice >> bit) & 1) clicks |= 1 << column;
    });
    pivotColumns.forEach((column, r) => {
      const row = rows[r]!; // pivot column r's row: r < rank <= rows.length
      let value = (row >> n) & 1;
      for (const free of freeColumns) if (clicks & (1 << free) && row & (1 << free)) value ^= 1;
      if (value) clicks |= 1 << column;
    });
    let weight = 0;
    for (let bits = clicks; bits !== 0; bits &= bits - 1) weight++;
    if (weight < bestWeight) {
      bestWeight = weight;
      best = clicks;
    }
  }
  const moves: Move[] = [];
  level.lampCells.forEach((cell, index) => {
    if (best & (1 << index)) moves.push({ id: CLICK_ACTION_ID, x: cell % level.width, y: Math.floor(cell / level.width) });
  });
  return moves;
}

export const lampGrid: PuzzleDefinition<LampLevel, LampState> = {
  slug: 'lamp',
  title: 'Lamp Grid',
  tag: 'click',
  defaultFps: 5,
  availableActions: [CLICK_ACTION_ID],
  rulesVersion: 'lamp-grid/1',
  letterbox: GAP_COLOUR,
  levels: lampGridLevels,
  parseLevel: parseLampLevel,
  boardSize: (level) => level,
  initialState: (level) => ({ lit: level.startLit.slice(), unlit: unlitCount(level, level.startLit) }),
  cloneState: (state) => ({ lit: state.lit.slice(), unlit: state.unlit }),
  stateKey: (state) => state.lit.join(''),
  apply(level, state, move) {
    if (move.id !== CLICK_ACTION_ID || level.isLamp[move.y * level.width + move.x] === 0) return 'none';
    state.unlit += flip(level, state.lit, move.x, move.y);
    return state.unlit === 0 ? 'solved' : 'changed';
  },
  draw(level, state, cells) {
    for (let i = 0; i < cells.length; i++) cells[i] = level.isLamp[i] === 0 ? GAP_COLOUR : state.lit[i] === 1 ? LIT_COLOUR : UNLIT_COLOUR;
  },
  solverMoves: (level) => level.lampCells.map((cell) => ({ id: CLICK_ACTION_ID, x: cell % level.width, y: Math.floor(cell / level.width) })),
  solveOptimally: lightestSolution,
};
