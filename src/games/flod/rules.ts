/**
 * Paint Spill: the paint spreads from the top-left corner. Clicking (ACTION6) any cell recolours the
 * whole spill (every cell joined to the corner through its colour) with the clicked cell's colour, so
 * neighbouring patches of that colour join it. Make the board one colour. Undo (ACTION7) takes back a
 * click.
 */
import { CLICK_ACTION_ID, UNDO_ACTION_ID } from '../../protocol/index.ts';
import { parseAsciiMap } from '../engine/asciiMap.ts';
import type { Move, PuzzleDefinition } from '../engine/definition.ts';
import { paintSpillLevels } from './levels.ts';

/** Map letters and their palette colours: red, green, blue, yellow, purple, orange. */
const LETTERS = 'rgbypo';
const LETTER_COLOUR = [8, 14, 9, 11, 15, 12];

export interface SpillLevel {
  readonly width: number;
  readonly height: number;
  readonly startColours: Uint8Array;
  /** Scratch space for the fill, kept with the level so a move allocates nothing. */
  readonly stack: Int32Array;
  readonly mark: Uint8Array;
}

export interface SpillState {
  colours: Uint8Array;
}

function parseSpillLevel(text: string): SpillLevel {
  const map = parseAsciiMap(text);
  const size = map.width * map.height;
  const startColours = new Uint8Array(size);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const colour = LETTER_COLOUR[LETTERS.indexOf(map.at(x, y))];
      if (colour === undefined) throw new Error(`unknown cell '${map.at(x, y)}' at ${x},${y}; every cell is a colour letter of "${LETTERS}"`);
      startColours[y * map.width + x] = colour;
    }
  }
  return { width: map.width, height: map.height, startColours, stack: new Int32Array(size), mark: new Uint8Array(size) };
}

/** Recolours the spill (the corner's region) to `colour`; returns how many cells now have `colour`. */
function spill(level: SpillLevel, colours: Uint8Array, colour: number): number {
  const { width, height, stack, mark } = level;
  const from = colours[0];
  mark.fill(0);
  let top = 0;
  stack[top++] = 0;
  mark[0] = 1;
  while (top > 0) {
    const cell = stack[--top]!;
    colours[cell] = colour;
    const x = cell % width;
    if (x > 0 && mark[cell - 1] === 0 && colours[cell - 1] === from) {
      mark[cell - 1] = 1;
      stack[top++] = cell - 1;
    }
    if (x < width - 1 && mark[cell + 1] === 0 && colours[cell + 1] === from) {
      mark[cell + 1] = 1;
      stack[top++] = cell + 1;
    }
    if (cell >= width && mark[cell - width] === 0 && colours[cell - width] === from) {
      mark[cell - width] = 1;
      stack[top++] = cell - width;
    }
    if (cell < (height - 1) * width && mark[cell + width] === 0 && colours[cell + width] === from) {
      mark[cell + width] = 1;
      stack[top++] = cell + width;
    }
  }
  let same = 0;
  for (let i = 0; i < colours.length; i++) if (colours[i] === colour) same++;
  return same;
}

export const paintSpill: PuzzleDefinition<SpillLevel, SpillState> = {
  slug: 'flod',
  title: 'Paint Spill',
  tag: 'click',
  defaultFps: 5,
  availableActions: [CLICK_ACTION_ID, UNDO_ACTION_ID],
  rulesVersion: 'paint-spill/1',
  letterbox: 4,
  levels: paintSpillLevels,
  parseLevel: parseSpillLevel,
  boardSize: (level) => level,
  initialState: (level) => ({ colours: level.startColours.slice() }),
  cloneState: (state) => ({ colours: state.colours.slice() }),
  stateKey: (state) => String.fromCharCode(...state.colours),
  apply(level, state, move) {
    if (move.id !== CLICK_ACTION_ID) return 'none';
    const colour = state.colours[move.y * level.width + move.x]!;
    // Clicking the spill's own colour changes nothing.
    if (colour === state.colours[0]) return 'none';
    return spill(level, state.colours, colour) === state.colours.length ? 'solved' : 'changed';
  },
  draw(_level, state, cells) {
    cells.set(state.colours);
  },
  solverMoves(level, state) {
    // Any cell of a colour does the same, so one click per colour other than the spill's.
    const moves: Move[] = [];
    const seen = new Set<number>([state.colours[0]!]);
    for (let i = 0; i < state.colours.length; i++) {
      const colour = state.colours[i]!;
      if (seen.has(colour)) continue;
      seen.add(colour);
      moves.push({ id: CLICK_ACTION_ID, x: i % level.width, y: Math.floor(i / level.width) });
    }
    return moves;
  },
};
