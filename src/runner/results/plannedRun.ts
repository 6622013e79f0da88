/**
 * The episodes a run's plan declared, read back from run.json (the plan's fingerprint and the shard it
 * plays), laid out as runner/plan.ts lays them out: the denominators of the results table.
 */
import type { PlannedEpisode } from '../../analysis/planDenominators.ts';
import type { RunReport } from '../../runfolder/runReport.ts';
import type { PlannedRun } from './tableRows.ts';
import { episodesOfShard } from '../shard.ts';

/**
 * Undefined when the layout here does not give the number of episodes the run planned (a plan laid out
 * otherwise): no denominators then, rather than wrong ones.
 */
export function plannedRunOf(report: Pick<RunReport, 'plan' | 'shard'>): PlannedRun | undefined {
  const { plan } = report;
  const specs: Array<{ agent: { label: string }; game: { game_id: string }; index: number }> = [];
  for (let index = 0; index < plan.episodes * (plan.repeats ?? 1); index++) {
    for (const game of plan.games) for (const agent of plan.agents) specs.push({ agent: { label: agent.label }, game: { game_id: game }, index });
  }
  const mine = report.shard === undefined ? specs : episodesOfShard(specs, report.shard);
  const episodes: PlannedEpisode[] = mine.map((spec) => ({ agent: spec.agent.label, game: spec.game.game_id, episode: spec.index }));
  if (episodes.length !== plan.planned_episodes) return undefined;
  return { episodes, episodesPerRepeat: plan.episodes, repeats: plan.repeats ?? 1 };
}
