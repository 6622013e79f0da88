/**
 * Key Keeper: walk (ACTION1–4) through a maze to the exit. Locked doors block the way; ACTION5 is the
 * hand: on a key it picks the key up (swapping it for the one held: one hand, one key), next to a door
 * of the held key's colour it unlocks the door (the key is used up), elsewhere it drops the held key.
 *
 * Each maze cell is drawn as a 3×3 block so that a key on the floor, a locked door and the key in the
 * player's hand are all visible: the player's centre shows the held key.
 */
import { findOne, parseAsciiMap } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { keyKeeperLevels } from './levels.ts';
import { neighbour } from '../engine/directions.ts';

/** Cells of the drawn block per maze cell, in each direction. */
const TILE = 3;

/** Ground kinds of a cell besides floor, which is 0 (a new array's value). */
const WALL = 1;
const EXIT = 2;

export interface KeyLevel {
  readonly width: number;
  readonly height: number;
  readonly ground: Uint8Array;
  /** Key colour (1..3) lying on each cell at the start, 0 for none. */
  readonly startKeys: Uint8Array;
  /** Door colour (1..3) of each cell at the start, 0 for none. */
  readonly startDoors: Uint8Array;
  readonly start: number;
}

export interface KeyState {
  player: number;
  held: number;
  keys: Uint8Array;
  doors: Uint8Array;
}

/** Palette colour of key/door colour 1..3: red, blue, yellow. */
const KEY_COLOUR = [0, 8, 9, 11];
const COLOUR = { floor: 0, wall: 4, exit: 14, player: 15, keyhole: 5 } as const;

const SOLVER_MOVES: readonly Move[] = [1, 2, 3, 4, 5].map((id) => ({ id: id as 1 | 2 | 3 | 4 | 5, x: -1, y: -1 }));

function parseKeyLevel(text: string): KeyLevel {
  const map = parseAsciiMap(text);
  const size = map.width * map.height;
  const ground = new Uint8Array(size);
  const startKeys = new Uint8Array(size);
  const startDoors = new Uint8Array(size);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const char = map.at(x, y);
      const i = y * map.width + x;
      const key = 'rby'.indexOf(char) + 1;
      const door = 'RBY'.indexOf(char) + 1;
      if (char === '#' || char === ' ') ground[i] = WALL;
      else if (char === 'E') ground[i] = EXIT;
      else if (key > 0) startKeys[i] = key;
      else if (door > 0) startDoors[i] = door;
      else if (char !== '.' && char !== 'P') throw new Error(`unknown cell '${char}' at ${x},${y}; use # . P E, keys r b y, doors R B Y`);
    }
  }
  findOne(map, 'E', 'exit');
  const start = findOne(map, 'P', 'player');
  return { width: map.width, height: map.height, ground, startKeys, startDoors, start: start.y * map.width + start.x };
}

/** Unlocks the first adjacent door (up, down, left, right) of the held key's colour; false if none. */
function unlockNextTo(level: KeyLevel, state: KeyState): boolean {
  for (let direction = 1; direction <= 4; direction++) {
    const cell = neighbour(state.player, direction, level.width, level.height);
    if (cell >= 0 && state.doors[cell] === state.held) {
      state.doors[cell] = 0;
      state.held = 0;
      return true;
    }
  }
  return false;
}

function fillTile(cells: Uint8Array, boardWidth: number, x: number, y: number, colour: number): void {
  // Plain stores: fill() on three-cell ranges costs more in call overhead than the writes themselves.
  for (let row = 0, at = y * TILE * boardWidth + x * TILE; row < TILE; row++, at += boardWidth) {
    cells[at] = colour;
    cells[at + 1] = colour;
    cells[at + 2] = colour;
  }
}

export const keyKeeper: PuzzleDefinition<KeyLevel, KeyState> = {
  slug: 'keys',
  title: 'Key Keeper',
  tag: 'keyboard',
  defaultFps: 5,
  availableActions: [1, 2, 3, 4, 5],
  rulesVersion: 'key-keeper/1',
  letterbox: 5,
  levels: keyKeeperLevels,
  parseLevel: parseKeyLevel,
  boardSize: (level) => ({ width: level.width * TILE, height: level.height * TILE }),
  initialState: (level) => ({ player: level.start, held: 0, keys: level.startKeys.slice(), doors: level.startDoors.slice() }),
  cloneState: (state) => ({ player: state.player, held: state.held, keys: state.keys.slice(), doors: state.doors.slice() }),
  stateKey: (state) => `${state.player}:${state.held}:${state.keys.join('')}:${state.doors.join('')}`,
  apply(level, state, move) {
    if (move.id === 5) {
      const onFloor = state.keys[state.player]!;
      if (onFloor !== 0) {
        state.keys[state.player] = state.held;
        state.held = onFloor;
        return 'changed';
      }
      if (state.held === 0) return 'none';
      if (unlockNextTo(level, state)) return 'changed';
      state.keys[state.player] = state.held;
      state.held = 0;
      return 'changed';
    }
    const next = neighbour(state.player, move.id, level.width, level.height);
    if (next < 0 || level.ground[next] === WALL || state.doors[next] !== 0) return 'none';
    state.player = next;
    return level.ground[next] === EXIT ? 'solved' : 'changed';
  },
  draw(level, state, cells) {
    const boardWidth = level.width * TILE;
    const centre = boardWidth + 1;
    for (let y = 0, i = 0; y < level.height; y++) {
      for (let x = 0; x < level.width; x++, i++) {
        const ground = level.ground[i]!;
        const door = state.doors[i]!;
        const key = state.keys[i]!;
        const at = y * TILE * boardWidth + x * TILE;
        if (i === state.player) {
          fillTile(cells, boardWidth, x, y, COLOUR.player);
          if (state.held !== 0) cells[at + centre] = KEY_COLOUR[state.held]!;
        } else if (door !== 0) {
          fillTile(cells, boardWidth, x, y, KEY_COLOUR[door]!);
          cells[at + centre] = COLOUR.keyhole;
        } else {
          fillTile(cells, boardWidth, x, y, ground === WALL ? COLOUR.wall : ground === EXIT ? COLOUR.exit : COLOUR.floor);
          if (key !== 0) cells[at + centre] = KEY_COLOUR[key]!;
        }
      }
    }
  },
  solverMoves: () => SOLVER_MOVES,
};
