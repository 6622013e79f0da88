/**
 * A batch of actions the model planned in one reply (`max_actions_per_turn` over 1), played one by one
 * without asking it again. After each action the batch is checked: it stops at a level change, at
 * GAME_OVER, and at the first action whose effect contradicts its prediction (the grid changed where
 * the model expected nothing, or stayed as it was where it expected a change). The report says where
 * and why, for the model's next turn. A budget ends the episode, and the batch with it.
 */
import { type FrameResponse, type Grid, latestGrid } from 'arcbench';
import type { SavedBatch } from './savedState.ts';
import type { ModelChoice } from './tools.ts';
import { changedCells, describeAction } from './turnText.ts';

export class Batch {
  /** Actions played so far (the first is played when the batch is made). */
  private played = 1;

  constructor(
    /** 1 for the episode's first batch. */
    readonly number: number,
    readonly choices: readonly ModelChoice[],
  ) {}

  /** The batch in progress as JSON, for the agent's snapshot. */
  saved(): SavedBatch {
    return { number: this.number, choices: this.choices, played: this.played };
  }

  static fromSaved(saved: SavedBatch): Batch {
    const batch = new Batch(saved.number, saved.choices);
    batch.played = saved.played;
    return batch;
  }

  /** The reasoning an action of the batch is sent with: its batch and position, then its rationale. */
  label(position: number): string {
    const choice = this.choices[position - 1];
    const why = [choice?.rationale, choice?.prediction === undefined ? undefined : `expects: ${choice.prediction}`].filter(Boolean).join('; ');
    return `batch ${this.number}, action ${position} of ${this.choices.length}${why === '' ? '' : `: ${why}`}`;
  }

  /** After an action was played: the next one to play, or the report of why the batch ends here. */
  next(before: { grid: Grid; levelsCompleted: number }, frame: FrameResponse): { choice: ModelChoice; position: number } | { report: string } {
    const last = this.choices[this.played - 1]!;
    const stopped = this.stopReason(last, before, frame);
    const where = `after action ${this.played} of ${this.choices.length} (${describeAction(last)})`;
    if (stopped !== undefined) {
      const left = this.choices.length - this.played;
      return {
        report: `Your batch ${this.number} stopped ${where}: ${stopped}; the ${left} action${left === 1 ? '' : 's'} after it ${left === 1 ? 'was' : 'were'} not played.`,
      };
    }
    const choice = this.choices[this.played];
    if (choice === undefined) return { report: `Your batch ${this.number} of ${this.choices.length} actions was played whole.` };
    this.played++;
    return { choice, position: this.played };
  }

  private stopReason(last: ModelChoice, before: { grid: Grid; levelsCompleted: number }, frame: FrameResponse): string | undefined {
    if (this.played >= this.choices.length) return undefined;
    if (frame.state === 'WIN') return 'the game was won';
    if (frame.levels_completed !== before.levelsCompleted) return 'the level changed';
    if (frame.state === 'GAME_OVER') return 'GAME_OVER';
    if (last.expectChange === undefined) return undefined;
    const changed = changedCells(before.grid, latestGrid(frame));
    if (last.expectChange && changed === 0) return 'you expected a change, but nothing changed';
    if (!last.expectChange && changed > 0) return `you expected no change, but ${changed} cell${changed === 1 ? '' : 's'} changed`;
    return undefined;
  }
}
