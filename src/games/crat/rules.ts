/**
 * Crate Yard: push every crate onto a pad. The player walks with ACTION1–4 and pushes a crate by walking
 * into it when the cell beyond is free; crates cannot be pulled, so a crate in a corner is stuck for
 * good, which is why the game offers undo (ACTION7).
 */
import { parseAsciiMap, findOne } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { crateYardLevels } from './levels.ts';
import { neighbour } from '../engine/directions.ts';

export interface CrateLevel {
  readonly width: number;
  readonly height: number;
  /** 1 where the cell is a wall or outside the yard. */
  readonly blocked: Uint8Array;
  /** 1 where the cell is outside the yard (drawn as letterbox). */
  readonly outside: Uint8Array;
  readonly pads: Uint8Array;
  readonly startCrates: Uint8Array;
  readonly startPlayer: number;
  readonly padCount: number;
}

export interface CrateState {
  player: number;
  /** 1 where a crate stands. */
  crates: Uint8Array;
}

const COLOUR = { outside: 5, wall: 4, floor: 1, pad: 10, crate: 12, crateOnPad: 14, player: 9 } as const;

/** ACTION1–4: up, down, left, right, as (dx, dy). */

const KEY_MOVES: readonly Move[] = [1, 2, 3, 4].map((id) => ({ id: id as 1 | 2 | 3 | 4, x: -1, y: -1 }));

function parseCrateLevel(text: string): CrateLevel {
  const map = parseAsciiMap(text);
  const size = map.width * map.height;
  const blocked = new Uint8Array(size);
  const outside = new Uint8Array(size);
  const pads = new Uint8Array(size);
  const startCrates = new Uint8Array(size);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const i = y * map.width + x;
      const char = map.at(x, y);
      if (!'#.PBoXQ '.includes(char)) throw new Error(`unknown cell '${char}' at ${x},${y}; use # . P B o X Q or space`);
      if (char === '#' || char === ' ') blocked[i] = 1;
      if (char === ' ') outside[i] = 1;
      if (char === 'o' || char === 'X' || char === 'Q') pads[i] = 1;
      if (char === 'B' || char === 'X') startCrates[i] = 1;
    }
  }
  const player = findOne(map, 'PQ', 'player');
  const padCount = pads.reduce((sum, v) => sum + v, 0);
  const crateCount = startCrates.reduce((sum, v) => sum + v, 0);
  if (padCount !== crateCount || padCount === 0)
    throw new Error(`a level needs as many crates as pads (and at least one), found ${crateCount} crates and ${padCount} pads`);
  return { width: map.width, height: map.height, blocked, outside, pads, startCrates, startPlayer: player.y * map.width + player.x, padCount };
}

export const crateYard: PuzzleDefinition<CrateLevel, CrateState> = {
  slug: 'crat',
  title: 'Crate Yard',
  tag: 'keyboard',
  defaultFps: 5,
  availableActions: [1, 2, 3, 4, 7],
  rulesVersion: 'crate-yard/1',
  letterbox: COLOUR.outside,
  levels: crateYardLevels,
  parseLevel: parseCrateLevel,
  boardSize: (level) => level,
  initialState: (level) => ({ player: level.startPlayer, crates: level.startCrates.slice() }),
  cloneState: (state) => ({ player: state.player, crates: state.crates.slice() }),
  stateKey(state) {
    let key = `${state.player}:`;
    for (let i = 0; i < state.crates.length; i++) if (state.crates[i] === 1) key += `${i},`;
    return key;
  },
  apply(level, state, move) {
    const next = neighbour(state.player, move.id, level.width, level.height);
    if (next < 0 || level.blocked[next] === 1) return 'none';
    if (state.crates[next] === 1) {
      const beyond = neighbour(next, move.id, level.width, level.height);
      if (beyond < 0 || level.blocked[beyond] === 1 || state.crates[beyond] === 1) return 'none';
      state.crates[next] = 0;
      state.crates[beyond] = 1;
    }
    state.player = next;
    let onPads = 0;
    for (let i = 0; i < state.crates.length; i++) if (state.crates[i] === 1 && level.pads[i] === 1) onPads++;
    return onPads === level.padCount ? 'solved' : 'changed';
  },
  draw(level, state, cells) {
    for (let i = 0; i < cells.length; i++) {
      let colour: number = level.outside[i] === 1 ? COLOUR.outside : level.blocked[i] === 1 ? COLOUR.wall : level.pads[i] === 1 ? COLOUR.pad : COLOUR.floor;
      if (state.crates[i] === 1) colour = level.pads[i] === 1 ? COLOUR.crateOnPad : COLOUR.crate;
      cells[i] = colour;
    }
    cells[state.player] = COLOUR.player;
  },
  solverMoves: () => KEY_MOVES,
};
