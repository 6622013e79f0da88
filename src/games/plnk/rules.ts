/**
 * Plank Walk: walk (ACTION1–4) to the exit across a river. Walking over a loose plank picks it up;
 * clicking (ACTION6) a water cell next to the player lays a carried plank there as a bridge, clicking a
 * bridge next to the player takes its plank back. Walking into open water drowns the player: the level
 * is lost (GAME_OVER). Planks are few, so they must be taken up behind and laid again ahead.
 *
 * The row under the river shows the planks carried, one orange cell each.
 */
import { CLICK_ACTION_ID } from '../../protocol/index.ts';
import { findOne, parseAsciiMap } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { plankWalkLevels } from './levels.ts';
import { neighbour } from '../engine/directions.ts';

/** Ground kinds of a cell besides plain ground, which is 0 (a new array's value). */
const ROCK = 1;
const WATER = 2;
const EXIT = 3;

export interface PlankLevel {
  readonly width: number;
  /** Rows of the map; the board has one spacer row and one inventory row more. */
  readonly height: number;
  readonly ground: Uint8Array;
  readonly startBridges: Uint8Array;
  readonly startLoose: Uint8Array;
  readonly start: number;
}

export interface PlankState {
  player: number;
  carried: number;
  drowned: boolean;
  /** 1 where a water cell holds a plank. */
  bridges: Uint8Array;
  /** 1 where a plank lies on the ground. */
  loose: Uint8Array;
}

const GROUND_COLOUR = [1, 3, 9, 14];
const COLOUR = { bridge: 12, loose: 11, player: 15, drowned: 13, spacer: 5 } as const;

const KEY_MOVES: readonly Move[] = [1, 2, 3, 4].map((id) => ({ id: id as 1 | 2 | 3 | 4, x: -1, y: -1 }));

function parsePlankLevel(text: string): PlankLevel {
  const map = parseAsciiMap(text);
  const size = map.width * map.height;
  const ground = new Uint8Array(size);
  const startBridges = new Uint8Array(size);
  const startLoose = new Uint8Array(size);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const char = map.at(x, y);
      const i = y * map.width + x;
      if (char === '#' || char === ' ') ground[i] = ROCK;
      else if (char === '~') ground[i] = WATER;
      else if (char === '=') {
        ground[i] = WATER;
        startBridges[i] = 1;
      } else if (char === 'E') ground[i] = EXIT;
      else if (char === 'p') startLoose[i] = 1;
      else if (char !== '.' && char !== 'P') throw new Error(`unknown cell '${char}' at ${x},${y}; use # . ~ = p P E`);
    }
  }
  findOne(map, 'E', 'exit');
  const start = findOne(map, 'P', 'player');
  return { width: map.width, height: map.height, ground, startBridges, startLoose, start: start.y * map.width + start.x };
}

/** Whether map cell (x, y) is orthogonally next to the player. */
function nextToPlayer(level: PlankLevel, state: PlankState, x: number, y: number): boolean {
  const px = state.player % level.width;
  const py = (state.player - px) / level.width;
  return Math.abs(px - x) + Math.abs(py - y) === 1;
}

export const plankWalk: PuzzleDefinition<PlankLevel, PlankState> = {
  slug: 'plnk',
  title: 'Plank Walk',
  tag: 'keyboard_click',
  defaultFps: 5,
  availableActions: [1, 2, 3, 4, CLICK_ACTION_ID],
  rulesVersion: 'plank-walk/1',
  letterbox: 5,
  levels: plankWalkLevels,
  parseLevel: parsePlankLevel,
  boardSize: (level) => ({ width: level.width, height: level.height + 2 }),
  initialState: (level) => ({ player: level.start, carried: 0, drowned: false, bridges: level.startBridges.slice(), loose: level.startLoose.slice() }),
  cloneState: (state) => ({ ...state, bridges: state.bridges.slice(), loose: state.loose.slice() }),
  stateKey: (state) => `${state.player}:${state.carried}:${state.bridges.join('')}:${state.loose.join('')}`,
  apply(level, state, move) {
    if (move.id === CLICK_ACTION_ID) {
      // Clicks below the map (spacer, inventory) do nothing.
      if (move.y >= level.height || !nextToPlayer(level, state, move.x, move.y)) return 'none';
      const cell = move.y * level.width + move.x;
      if (level.ground[cell] !== WATER) return 'none';
      if (state.bridges[cell] === 1) {
        state.bridges[cell] = 0;
        state.carried++;
        return 'changed';
      }
      if (state.carried === 0) return 'none';
      state.bridges[cell] = 1;
      state.carried--;
      return 'changed';
    }
    const next = neighbour(state.player, move.id, level.width, level.height);
    if (next < 0) return 'none';
    const ground = level.ground[next];
    if (ground === ROCK) return 'none';
    state.player = next;
    if (ground === WATER && state.bridges[next] === 0) {
      state.drowned = true;
      return 'lost';
    }
    if (state.loose[next] === 1) {
      state.loose[next] = 0;
      state.carried++;
    }
    return ground === EXIT ? 'solved' : 'changed';
  },
  draw(level, state, cells) {
    const mapCells = level.width * level.height;
    for (let i = 0; i < mapCells; i++) {
      cells[i] = state.bridges[i] === 1 ? COLOUR.bridge : state.loose[i] === 1 ? COLOUR.loose : GROUND_COLOUR[level.ground[i]!]!;
    }
    cells[state.player] = state.drowned ? COLOUR.drowned : COLOUR.player;
    cells.fill(COLOUR.spacer, mapCells);
    for (let i = 0; i < state.carried && i < level.width; i++) cells[mapCells + level.width + i] = COLOUR.bridge;
  },
  solverMoves(level, state) {
    const moves: Move[] = [...KEY_MOVES];
    for (let direction = 1; direction <= 4; direction++) {
      const cell = neighbour(state.player, direction, level.width, level.height);
      if (cell >= 0 && level.ground[cell] === WATER) moves.push({ id: CLICK_ACTION_ID, x: cell % level.width, y: Math.floor(cell / level.width) });
    }
    return moves;
  },
};
