/**
 * What a resume plays: every planned episode without a finished record. A record stops counting as
 * finished when the run's own stop cut it short (it is played again, from a new RESET), or when it
 * failed and `--retry-errors` is given; such records stay in episodes.jsonl, marked superseded. An
 * episode in flight when the process died has no record at all, so it is simply played again.
 */
import { keyOfRecord, keyOfSpec } from '../../runfolder/episodeKey.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import type { Plan } from '../plan.ts';
import { RunFolderError } from '../../runfolder/runReport.ts';

export interface ResumeSelection {
  /** The current record of each planned episode that stays finished. */
  readonly kept: EpisodeRecord[];
  /** Records kept in the log but no longer counted (marked now or by an earlier attempt). */
  readonly superseded: EpisodeRecord[];
  /** Planned episodes to play now, in plan order. */
  readonly toPlay: EpisodeSpec[];
  /** Records this selection marked superseded: episodes.jsonl must be rewritten when there are any. */
  readonly newlySuperseded: number;
  /** Of the episodes to play: how many failed before (retry-errors), and how many the run's stop cut short. */
  readonly replayedErrors: number;
  readonly replayedCut: number;
}

function supersede(record: EpisodeRecord, attempt: number, reason: string): void {
  record.superseded = { by_attempt: attempt, reason };
}

/**
 * `records` are every line of episodes.jsonl in file order; records this marks superseded are changed
 * in place. A planned key with two current records keeps the later one (the earlier is marked).
 */
export function selectEpisodes(
  plan: Plan,
  records: readonly EpisodeRecord[],
  options: { attempt: number; retryErrors: boolean; where: string },
): ResumeSelection {
  const planned = new Set(plan.episodes.map(keyOfSpec));
  const current = new Map<string, EpisodeRecord>();
  let newlySuperseded = 0;
  for (const record of records) {
    if (record.superseded !== undefined) continue;
    const key = keyOfRecord(record);
    if (!planned.has(key)) {
      throw new RunFolderError(
        `${options.where}: holds episode ${record.episode} of ${record.agent} on ${record.game_id}, which this run's plan does not have; the folder mixes runs: resume it with the experiment that made it`,
      );
    }
    const earlier = current.get(key);
    if (earlier !== undefined) {
      supersede(earlier, record.attempt, 'a later record of the same episode');
      newlySuperseded++;
    }
    current.set(key, record);
  }
  const kept: EpisodeRecord[] = [];
  let replayedErrors = 0;
  let replayedCut = 0;
  for (const record of current.values()) {
    if (record.cut_by_run_stop === true) {
      supersede(record, options.attempt, "cut short by the run's stop; played again");
      replayedCut++;
    } else if (options.retryErrors && record.outcome === 'error') {
      supersede(record, options.attempt, 'failed; played again (--retry-errors)');
      replayedErrors++;
    } else {
      kept.push(record);
    }
  }
  newlySuperseded += replayedCut + replayedErrors;
  const finished = new Set(kept.map(keyOfRecord));
  return {
    kept,
    superseded: records.filter((r) => r.superseded !== undefined),
    toPlay: plan.episodes.filter((spec) => !finished.has(keyOfSpec(spec))),
    newlySuperseded,
    replayedErrors,
    replayedCut,
  };
}
