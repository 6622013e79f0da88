/**
 * What a game author writes: the rules of one puzzle over its own level and state types. The engine
 * (puzzleGame.ts) turns a definition into a `Game`: it owns the display, the step budget, undo, level
 * transitions and the mapping of clicks to cells, so a definition only says what the board is and
 * what a move does to it.
 */
import type { GameActionId, GameTag } from '../../protocol/index.ts';

/**
 * One move in board terms. For ACTION6, `x`, `y` are the logical cell clicked; for the other actions
 * they are -1. The engine may reuse one object between calls, so a definition must not keep it.
 */
export interface Move {
  readonly id: GameActionId;
  readonly x: number;
  readonly y: number;
}

/** What a move did: nothing (no undo entry), changed the board, solved the level, or lost it. */
export type MoveEffect = 'none' | 'changed' | 'solved' | 'lost';

/** Handed to `apply` while playing (null while solving): `frame()` records the board as it is now. */
export interface Animation {
  frame(): void;
}

/** A level as stored next to its game: the ASCII map and the first-time-human baseline. */
export interface LevelSource {
  readonly map: string;
  /** Computed offline by the solver and `baselineForOptimal` (rules.ts; printBaselines.ts prints them); the tests recheck it. */
  readonly baseline: number;
}

export interface PuzzleDefinition<Level, State> {
  readonly slug: string;
  readonly title: string;
  readonly tag: GameTag;
  readonly defaultFps: number;
  /** Includes UNDO_ACTION_ID exactly when the game offers undo; the engine then keeps the undo stack. */
  readonly availableActions: readonly GameActionId[];
  /** Bumped when the rules change, so the game id changes with them. */
  readonly rulesVersion: string;
  /** Palette index around the board. */
  readonly letterbox: number;
  readonly levels: readonly LevelSource[];

  parseLevel(map: string): Level;
  boardSize(level: Level): { readonly width: number; readonly height: number };
  initialState(level: Level): State;
  cloneState(state: State): State;
  /** A string equal for equal states: the solver's visited-set key. */
  stateKey(state: State): string;
  /** Applies a move in place. Unused action ids never reach it; undo (UNDO_ACTION_ID) is the engine's. */
  apply(level: Level, state: State, move: Move, animation: Animation | null): MoveEffect;
  /** Writes every cell of the board, row-major, `width * height` entries. */
  draw(level: Level, state: State, cells: Uint8Array): void;
  /** The moves worth trying from a state, for breadth-first search (no undo). */
  solverMoves(level: Level, state: State): readonly Move[];
  /** An optimal solution by other means than breadth-first search, when the state space is too big. */
  solveOptimally?(level: Level): readonly Move[];
}
