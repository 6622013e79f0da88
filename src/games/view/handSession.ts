/**
 * A person's play of one game, with the service's counting and RESET rules (SPEC §4) so that what they
 * see matches what an agent's scorecard would show: a RESET with no action on the level since it began
 * (or after a win) restarts the whole game, otherwise it restarts the level and counts one action.
 */
import type { Grid } from '../../protocol/index.ts';
import type { GameInput } from '../types.ts';
import type { PuzzleGame, PuzzlePlay } from '../engine/puzzleGame.ts';

export type HandState = 'NOT_FINISHED' | 'WIN' | 'GAME_OVER';

export interface HandStep {
  /** Grids to show, in order; empty when the action was refused. */
  readonly frames: readonly Grid[];
  readonly message: string;
}

export class HandSession {
  play: PuzzlePlay<unknown, unknown>;
  state: HandState = 'NOT_FINISHED';
  levelsCompleted = 0;
  actions = 0;
  resets = 0;
  private actionsOnLevel = 0;

  constructor(
    readonly game: PuzzleGame<unknown, unknown>,
    private readonly firstLevel = 0,
  ) {
    this.play = game.startAt(firstLevel);
  }

  act(input: GameInput): HandStep {
    if (this.state !== 'NOT_FINISHED') {
      return { frames: [], message: this.state === 'WIN' ? 'the game is won: r plays it again, q quits' : 'game over: r retries the level, q quits' };
    }
    this.actions++;
    this.actionsOnLevel++;
    const result = this.play.step(input);
    let message = '';
    if (result.outcome === 'level_completed') {
      this.levelsCompleted++;
      this.actionsOnLevel = 0;
      message = `level ${this.play.levelIndex} completed`;
    } else if (result.outcome === 'won') {
      this.levelsCompleted++;
      this.state = 'WIN';
      message = 'every level completed: you win';
    } else if (result.outcome === 'lost') {
      this.state = 'GAME_OVER';
      message = this.play.stepsTaken >= this.play.stepBudget ? 'out of steps: game over (r retries the level)' : 'lost: game over (r retries the level)';
    }
    return { frames: result.frames, message };
  }

  reset(): HandStep {
    if (this.state === 'WIN' || this.actionsOnLevel === 0) {
      this.play = this.game.startAt(this.firstLevel);
      this.state = 'NOT_FINISHED';
      this.levelsCompleted = 0;
      this.actionsOnLevel = 0;
      return { frames: [this.play.frame()], message: 'full restart: back to the first level' };
    }
    this.actions++;
    this.resets++;
    this.actionsOnLevel = 0;
    this.state = 'NOT_FINISHED';
    return { frames: [this.play.resetLevel()], message: 'level restarted (r again restarts the game)' };
  }
}
