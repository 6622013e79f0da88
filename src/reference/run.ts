/**
 * One run (docs/protocol.md §1, §5): from a full reset to the next. Keeps only counters and the action count at
 * each level completion, never frames, so a long session stays a few hundred bytes.
 */
import type { RunEntry } from '../protocol/index.ts';
import { buildRunEntry, type RunState } from './scoring.ts';

/** A run's counters as they stand, with no scoring: what the toolkit's per-game card lists (docs/protocol.md §7a). */
export interface RunCounts {
  readonly guid: string;
  readonly actions: number;
  readonly resets: number;
  readonly levelsCompleted: number;
  /** The run's action count when each level was completed, for every level completed (beyond the baselines too). */
  readonly completionActionCounts: readonly number[];
  readonly state: RunState;
}

export class RunTracker {
  readonly gameId: string;
  readonly guid: string;
  readonly baselines: readonly number[];
  /** Counted actions: game actions plus level resets. */
  actions = 0;
  /** Level resets. */
  resets = 0;
  /** Run action count at each level's completion, the completing action included. */
  private readonly completionMarks: number[] = [];
  private state: RunState = 'NOT_FINISHED';

  constructor(gameId: string, guid: string, baselines: readonly number[]) {
    this.gameId = gameId;
    this.guid = guid;
    this.baselines = baselines;
  }

  get levelsCompleted(): number {
    return this.completionMarks.length;
  }

  /** A counted game action; `completedLevel` when it completed a level. */
  recordAction(completedLevel: boolean): void {
    this.actions += 1;
    if (completedLevel) this.completionMarks.push(this.actions);
  }

  /** A level reset: one action and one reset on this run. */
  recordLevelReset(): void {
    this.actions += 1;
    this.resets += 1;
  }

  /** GAME_OVER stays the run's state unless the run later wins. */
  recordLoss(): void {
    this.state = 'GAME_OVER';
  }

  recordWin(): void {
    this.state = 'WIN';
  }

  counts(): RunCounts {
    return {
      guid: this.guid,
      actions: this.actions,
      resets: this.resets,
      levelsCompleted: this.levelsCompleted,
      completionActionCounts: [...this.completionMarks],
      state: this.state,
    };
  }

  /** The run entry of the scorecard, scored now. */
  toEntry(): RunEntry {
    return buildRunEntry({
      gameId: this.gameId,
      guid: this.guid,
      baselines: this.baselines,
      completionActionCounts: this.completionMarks,
      levelsCompleted: this.levelsCompleted,
      actions: this.actions,
      resets: this.resets,
      state: this.state,
    });
  }
}
