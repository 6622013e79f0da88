/** Shared by the games tests: seeded randomness, grid comparisons, and playing solutions. */
import type { Grid } from '../src/protocol/index.ts';
import { GRID_SIZE } from '../src/protocol/index.ts';
import { PLAY_TOP, PLAY_HEIGHT } from '../src/games/engine/layout.ts';
import { gameInputOf } from '../src/games/engine/moveInput.ts';
import type { PuzzleGame, PuzzlePlay } from '../src/games/engine/puzzleGame.ts';
import { solveLevel } from '../src/games/engine/solver.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import type { StepResult } from '../src/games/types.ts';
import { firstOf, lastOf } from './support/lists.ts';

export function gameBySlug(slug: string): PuzzleGame<unknown, unknown> {
  const game = puzzleCatalog().find((candidate) => candidate.info.slug === slug);
  if (game === undefined) throw new Error(`no game ${slug}`);
  return game;
}

/** The first and the last grid a step drew (every step draws at least one). */
export const firstFrame = (result: StepResult): Grid => firstOf(result.frames, 'frame');
export const lastFrame = (result: StepResult): Grid => lastOf(result.frames, 'frame');

export function sameGrid(a: Grid, b: Grid): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/** The board part of a grid, without the progress and budget rows (which change with every step). */
export function playArea(grid: Grid): Grid {
  return grid.subarray(PLAY_TOP * GRID_SIZE, (PLAY_TOP + PLAY_HEIGHT) * GRID_SIZE);
}

/** Plays the solver's solution of the current level; returns the last step's result. */
export function solveCurrentLevel(game: PuzzleGame<unknown, unknown>, play: PuzzlePlay<unknown, unknown>) {
  const index = play.levelIndex;
  const solution = solveLevel(game.definition, game.levels[index]);
  let last: StepResult | undefined;
  for (const move of solution.moves) last = play.step(gameInputOf(game.layouts[index]!, move));
  if (last === undefined) throw new Error('empty solution');
  return last;
}
