/**
 * A puzzle game as `play --level n` serves it: every play begins at level n, as if the earlier levels had
 * been completed, and the baselines are those of the levels left, so that the service counts and scores
 * what is played. It also keeps the play it handed out last: the service does not say how many steps of
 * the level's budget are spent, and a person wants to see it.
 */
import type { Game, GameInfo } from '../../games/types.ts';
import type { PuzzleGame, PuzzlePlay } from '../../games/engine/puzzleGame.ts';

export interface GameFromLevel extends Game {
  /** The play the service started last (its current one), or undefined before the first start. */
  readonly currentPlay: PuzzlePlay<unknown, unknown> | undefined;
}

export function gameFromLevel(game: PuzzleGame<unknown, unknown>, firstLevel: number): GameFromLevel {
  const info: GameInfo = { ...game.info, baselineActions: game.info.baselineActions.slice(firstLevel) };
  let currentPlay: PuzzlePlay<unknown, unknown> | undefined;
  return {
    info,
    get currentPlay() {
      return currentPlay;
    },
    start() {
      currentPlay = game.startAt(firstLevel);
      return currentPlay;
    },
  };
}
