/**
 * Whether a run played its whole plan, in one place: the run's status, and the sentence the table and
 * the exit line print when episodes are missing. A run that stopped early on its wall time or its
 * dollar budget is `partial`, never `completed`.
 */
import type { RunReport, RunStatus } from '../../runfolder/runReport.ts';

export interface RunEnd {
  /** The user interrupted this attempt (SIGINT/SIGTERM). */
  readonly interrupted: boolean;
  /** This attempt's run_seconds ran out before it was done. */
  readonly stoppedOnRunTime: boolean;
  /** The run's dollar budget (budgets.max_run_cost_usd) stopped the scheduling of new episodes. */
  readonly stoppedOnCost?: boolean;
  readonly totals: Pick<RunReport['totals'], 'skipped_episodes' | 'cut_episodes' | 'errors' | 'close_errors'>;
}

/** The status run.json gets from how an attempt ended (the report's `folderStatus` reads it back from a folder). */
export function statusAtRunEnd(end: RunEnd): RunStatus {
  const { totals } = end;
  if (end.interrupted) return 'interrupted';
  if (totals.skipped_episodes + totals.cut_episodes > 0) return end.stoppedOnRunTime || end.stoppedOnCost ? 'partial' : 'failed';
  return totals.errors > 0 || totals.close_errors > 0 ? 'failed' : 'completed';
}

/**
 * What is left to play, as a sentence ending in the command that plays it; undefined when nothing is.
 * The same words under the table, in table.md and on the exit line.
 */
export function unplayedSentence(report: Pick<RunReport, 'status' | 'totals'>, runDir: string): string | undefined {
  const { planned_episodes: planned, skipped_episodes: skipped, cut_episodes: cut } = report.totals;
  if (skipped + cut === 0) return undefined;
  const why =
    report.status === 'partial'
      ? 'stopped on a run budget (run_seconds or max_run_cost_usd)'
      : report.status === 'interrupted'
        ? 'interrupted'
        : 'stopped early';
  const cutPart = cut > 0 ? ` and ${cut} cut short` : '';
  return `${why}: ${skipped} of ${planned} planned episode(s) not played${cutPart}; \`arcbench resume ${runDir}\` plays them`;
}
