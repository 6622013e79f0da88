/**
 * Frost Slide: the player stands on ice and, once pushed (ACTION1–4), slides until a rock or the rink's
 * edge stops it. Snow stops a slide on the snow cell itself; the goal flag stops it and wins the level;
 * a hole swallows the player and the level is lost (GAME_OVER). A slide is an animation of up to
 * three grids.
 */
import { findOne, parseAsciiMap } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { frostSlideLevels } from './levels.ts';
import { STEP_X, STEP_Y } from '../engine/directions.ts';

const ICE = 0;
const ROCK = 1;
const SNOW = 2;
const HOLE = 3;
const GOAL = 4;

export interface SlideLevel {
  readonly width: number;
  readonly height: number;
  /** One of ICE, ROCK, SNOW, HOLE, GOAL per cell. */
  readonly ground: Uint8Array;
  readonly start: number;
}

export interface SlideState {
  player: number;
  fallen: boolean;
}

const GROUND_COLOUR = [10, 3, 0, 5, 14];
const PLAYER_COLOUR = 15;
const FALLEN_COLOUR = 13;

const KEY_MOVES: readonly Move[] = [1, 2, 3, 4].map((id) => ({ id: id as 1 | 2 | 3 | 4, x: -1, y: -1 }));

const LEGEND: Record<string, number> = { '.': ICE, P: ICE, '#': ROCK, _: SNOW, O: HOLE, G: GOAL };

function parseSlideLevel(text: string): SlideLevel {
  const map = parseAsciiMap(text);
  const ground = new Uint8Array(map.width * map.height);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const kind = LEGEND[map.at(x, y)];
      if (kind === undefined) throw new Error(`unknown cell '${map.at(x, y)}' at ${x},${y}; use . # _ O G P`);
      ground[y * map.width + x] = kind;
    }
  }
  findOne(map, 'G', 'goal');
  const start = findOne(map, 'P', 'player');
  return { width: map.width, height: map.height, ground, start: start.y * map.width + start.x };
}

/** How many cells a slide from (x, y) crosses before it stops, falls or arrives. */
function slideLength(level: SlideLevel, x: number, y: number, dx: number, dy: number): number {
  let length = 0;
  for (;;) {
    x += dx;
    y += dy;
    if (x < 0 || y < 0 || x >= level.width || y >= level.height) return length;
    const kind = level.ground[y * level.width + x];
    if (kind === ROCK) return length;
    length++;
    if (kind !== ICE) return length;
  }
}

export const frostSlide: PuzzleDefinition<SlideLevel, SlideState> = {
  slug: 'slid',
  title: 'Frost Slide',
  tag: 'keyboard',
  defaultFps: 8,
  availableActions: [1, 2, 3, 4],
  rulesVersion: 'frost-slide/1',
  letterbox: 4,
  levels: frostSlideLevels,
  parseLevel: parseSlideLevel,
  boardSize: (level) => level,
  initialState: (level) => ({ player: level.start, fallen: false }),
  cloneState: (state) => ({ player: state.player, fallen: state.fallen }),
  stateKey: (state) => `${state.player}`,
  apply(level, state, move, animation) {
    const dx = STEP_X[move.id];
    const dy = STEP_Y[move.id]!; // read only when dx is there: the tables are the same length
    if (dx === undefined || (dx === 0 && dy === 0)) return 'none';
    let x = state.player % level.width;
    let y = (state.player - x) / level.width;
    // At most two in-between frames per slide: enough to see the motion, cheap for fast agents.
    const frameEvery = animation === null ? 0 : Math.ceil(slideLength(level, x, y, dx, dy) / 3);
    let crossed = 0;
    let moved = false;
    for (;;) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= level.width || ny >= level.height) break;
      const kind = level.ground[ny * level.width + nx];
      if (kind === ROCK) break;
      // The previous cell becomes a frame of its own only once the player leaves it mid-slide.
      if (moved && animation !== null && crossed % frameEvery === 0) animation.frame();
      crossed++;
      x = nx;
      y = ny;
      moved = true;
      state.player = y * level.width + x;
      if (kind === HOLE) {
        state.fallen = true;
        return 'lost';
      }
      if (kind === GOAL) return 'solved';
      if (kind === SNOW) break;
    }
    return moved ? 'changed' : 'none';
  },
  draw(level, state, cells) {
    for (let i = 0; i < cells.length; i++) cells[i] = GROUND_COLOUR[level.ground[i]!]!;
    cells[state.player] = state.fallen ? FALLEN_COLOUR : PLAYER_COLOUR;
  },
  solverMoves: () => KEY_MOVES,
};
