/**
 * Counts an episode's actions exactly as the service does (docs/protocol.md §4–§5), so budgets stop at the right
 * action and the episode can be scored locally with the service's own scoring code. One episode is
 * one session; a full reset inside it starts a new run.
 */
import type { FrameResponse } from '../protocol/index.ts';
import type { RunState } from '../reference/scoring.ts';
import type { SavedLedger } from '../runfolder/checkpointFile.ts';
import type { RecordedRun } from '../runfolder/episodeRecord.ts';

interface RunProgress {
  readonly guid: string;
  /** Counted actions since the current level began or was last reset (docs/protocol.md §4 decides RESETs on it). */
  actionsOnLevel: number;
  /** Run-wide ordinal across the whole experiment: runs are scored in the order they began. */
  readonly sequence: number;
  actions: number;
  resets: number;
  levelsCompleted: number;
  /** Cumulative run actions at each level's completion. */
  readonly completions: number[];
  state: RunState;
}

export class RunLedger {
  private readonly runs: RunProgress[] = [];
  /** Actions counted though their answer was lost after they reached the service (recordLostAnswer). */
  answersLost = 0;

  /** `nextSequence` numbers runs across the experiment, in the order they began. */
  /**
   * `nextSequence` numbers runs across the experiment, in the order they began. `inferFullResets`: tell
   * a full reset by the rules of docs/protocol.md §4 as well as by the answer's `full_reset`, for services whose
   * answers always say false (docs/protocol.md §7a); off in competition mode, where every RESET is a level reset.
   */
  constructor(
    private readonly nextSequence: () => number,
    private readonly inferFullResets = true,
  ) {}

  /** Counted actions of the episode over all its runs. */
  get actions(): number {
    let total = 0;
    for (const run of this.runs) total += run.actions;
    return total;
  }

  get resets(): number {
    let total = 0;
    for (const run of this.runs) total += run.resets;
    return total;
  }

  /** Counted actions on the level being played (level resets and failed attempts included). */
  get levelActions(): number {
    const run = this.current();
    return run.actions - (run.completions.at(-1) ?? 0);
  }

  /** 0-based index of the level being played. */
  get levelIndex(): number {
    return this.current().levelsCompleted;
  }

  get bestLevelsCompleted(): number {
    return this.runs.reduce((best, run) => Math.max(best, run.levelsCompleted), 0);
  }

  /**
   * A RESET answer: a full reset begins a new run (not counted); a level reset counts 1 action and 1
   * reset. A RESET after a win, or with no action on the level since it began or was last reset, is a
   * full reset (docs/protocol.md §4), whatever the answer says.
   */
  recordReset(response: FrameResponse): void {
    const last = this.runs.at(-1);
    const full = response.full_reset || last === undefined || (this.inferFullResets && (last.state === 'WIN' || last.actionsOnLevel === 0));
    if (full) {
      this.runs.push({
        guid: response.guid,
        actionsOnLevel: 0,
        sequence: this.nextSequence(),
        actions: 0,
        resets: 0,
        levelsCompleted: response.levels_completed,
        completions: [],
        state: 'NOT_FINISHED',
      });
      return;
    }
    const run = this.current();
    run.actions += 1;
    run.resets += 1;
    run.actionsOnLevel = 0;
  }

  /** A game action's answer: 1 action counted; new levels completed at this count. */
  recordAction(response: FrameResponse): void {
    const run = this.current();
    run.actions += 1;
    run.actionsOnLevel += 1;
    while (run.levelsCompleted < response.levels_completed) {
      run.completions.push(run.actions);
      run.levelsCompleted += 1;
      run.actionsOnLevel = 0;
    }
    if (response.state === 'WIN') run.state = 'WIN';
    else if (response.state === 'GAME_OVER') run.state = 'GAME_OVER';
  }

  /**
   * An action that reached the service but whose answer was lost (another request's answer came in its
   * place): the service counted it like any other, so it is counted here too, the same way, with its
   * effect unknown (no level taken as completed by it). The episode ends on it.
   */
  recordLostAnswer(actionId: number, guid: string): void {
    this.answersLost += 1;
    if (actionId === 0) {
      this.recordReset({ guid, full_reset: false, levels_completed: 0 } as FrameResponse);
      return;
    }
    const run = this.current();
    run.actions += 1;
    run.actionsOnLevel += 1;
  }

  recordedRuns(): RecordedRun[] {
    return this.runs.map((run) => ({
      guid: run.guid,
      sequence: run.sequence,
      actions: run.actions,
      resets: run.resets,
      levels_completed: run.levelsCompleted,
      completion_actions: [...run.completions],
      state: run.state,
    }));
  }

  saved(): SavedLedger {
    return { runs: this.recordedRuns().map((run, i) => ({ ...run, actions_on_level: this.runs[i]!.actionsOnLevel })) };
  }

  /** Puts back the runs of a checkpoint (episodeCheckpoint.ts) into a new ledger, their sequence numbers kept. */
  restore(saved: SavedLedger): void {
    this.runs.length = 0;
    for (const run of saved.runs) {
      this.runs.push({
        guid: run.guid,
        actionsOnLevel: run.actions_on_level,
        sequence: run.sequence,
        actions: run.actions,
        resets: run.resets,
        levelsCompleted: run.levels_completed,
        completions: [...run.completion_actions],
        state: run.state,
      });
    }
  }

  private current(): RunProgress {
    const run = this.runs.at(-1);
    if (run === undefined) throw new Error('RunLedger: no run yet; record the first RESET answer first');
    return run;
  }
}
