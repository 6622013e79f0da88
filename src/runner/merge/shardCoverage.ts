/**
 * Whether run folders together hold the whole plan of one experiment, each planned episode exactly
 * once: the same plan fingerprint in every folder, then every key of the plan (agents × games ×
 * episode indices, from the fingerprint) played out in exactly one folder (an episode cut short by an
 * interrupt is not: its folder must be resumed first). Problems are sentences that name
 * the folders and the episodes.
 */
import { ArcbenchError } from '../../errors.ts';
import { describeEpisodeKey, episodeKey, keyOfRecord } from '../../runfolder/episodeKey.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { fingerprintDifferences } from '../resume/planFingerprint.ts';
import type { RunReport } from '../../runfolder/runReport.ts';

/** Run folders that cannot be merged as given; the CLI exits 2 on it. */
export class MergeError extends ArcbenchError {
  constructor(message: string) {
    super('RUN_MERGE_INVALID', message);
  }
}

export interface ShardFolder {
  readonly dir: string;
  readonly report: RunReport;
  /** The folder's current records (superseded ones left out). */
  readonly episodes: readonly EpisodeRecord[];
}

/** Episodes named in one sentence at most this many; the rest are counted. */
const NAMED = 10;

function named(keys: readonly string[]): string {
  const shown = keys.slice(0, NAMED).map(describeEpisodeKey).join('; ');
  return keys.length > NAMED ? `${shown}; and ${keys.length - NAMED} more` : shown;
}

/** Every planned key, in plan order (index, game, agent), from a run's fingerprint. */
export function plannedKeys(plan: RunReport['plan']): string[] {
  const keys: string[] = [];
  for (let index = 0; index < plan.episodes; index++)
    for (const game of plan.games) for (const agent of plan.agents) keys.push(episodeKey(agent.label, game, index));
  return keys;
}

export function checkSameExperiment(folders: readonly ShardFolder[]): void {
  const [first, ...others] = folders;
  if (first === undefined) throw new MergeError('give the run folders to merge, e.g. arcbench merge shards/* --out results/merged');
  for (const folder of others) {
    if (folder.report.plan.hash === first.report.plan.hash) continue;
    const changes = fingerprintDifferences(first.report.plan, folder.report.plan).join('; ');
    throw new MergeError(`${folder.dir} was played with another experiment than ${first.dir} (${changes}); merge only the shards of one experiment`);
  }
}

/** The planned records in plan order, or a MergeError naming missing, duplicated and unplanned episodes. */
export function checkCoverage(folders: readonly ShardFolder[]): EpisodeRecord[] {
  const planned = plannedKeys(folders[0]!.report.plan);
  const plannedSet = new Set(planned);
  const found = new Map<string, { record: EpisodeRecord; dir: string }>();
  const duplicated: string[] = [];
  const unplanned: string[] = [];
  for (const folder of folders) {
    for (const record of folder.episodes) {
      // An episode its run's stop cut short was not played out: a resume of that folder plays it again.
      if (record.cut_by_run_stop === true) continue;
      const key = keyOfRecord(record);
      if (!plannedSet.has(key)) unplanned.push(`${describeEpisodeKey(key)} (in ${folder.dir})`);
      else if (found.has(key)) duplicated.push(`${describeEpisodeKey(key)} (in ${found.get(key)!.dir} and ${folder.dir})`);
      else found.set(key, { record, dir: folder.dir });
    }
  }
  const missing = planned.filter((key) => !found.has(key));
  const problems: string[] = [];
  if (missing.length > 0)
    problems.push(
      `${missing.length} planned episode(s) are in no folder: ${named(missing)}; merge every shard, and finish a stopped one first with \`arcbench resume <its folder>\``,
    );
  if (duplicated.length > 0)
    problems.push(
      `${duplicated.length} episode(s) are in two folders: ${duplicated.slice(0, NAMED).join('; ')}${duplicated.length > NAMED ? `; and ${duplicated.length - NAMED} more` : ''}; give each shard once`,
    );
  if (unplanned.length > 0) problems.push(`${unplanned.length} episode(s) are not in the plan: ${unplanned.slice(0, NAMED).join('; ')}`);
  if (problems.length > 0) throw new MergeError(`the folders do not cover the plan exactly:\n${problems.join('\n')}`);
  return planned.map((key) => found.get(key)!.record);
}
