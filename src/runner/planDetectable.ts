/**
 * `arcbench plan --from RUN`: how small a difference the planned experiment can tell from noise, from
 * the spread an earlier run showed (analysis/plannedDetectable.ts), said before a single episode is
 * played, so a user learns that 1 repeat of 3 games cannot settle a 2-point question before paying for it.
 */
import { detectableAhead, type PlannedDetectable, withinGameSpread } from '../analysis/plannedDetectable.ts';
import { runEpisodesOfFolder } from '../analysis/runEpisodes.ts';
import type { RunFolder } from '../runfolder/readRunFolder.ts';
import { ConfigError, type Experiment } from './config/loader.ts';
import type { Plan } from './plan.ts';

/** The MDD, or why the earlier run cannot give one: a sentence naming what to run instead. */
export function plannedDetectable(experiment: Experiment, plan: Plan, earlier: RunFolder): PlannedDetectable | { readonly unknown: string } {
  const spread = withinGameSpread(runEpisodesOfFolder(earlier, earlier.dir).episodes);
  if (spread === null) {
    return {
      unknown: `--from ${earlier.dir}: no agent played a game there more than once, and one episode shows no spread to plan from; run it with \`repeats: 2\` (or more episodes) first`,
    };
  }
  const { episodes, repeats } = experiment.config;
  return detectableAhead(spread, { games: plan.games.length, episodes, repeats });
}

/**
 * The MDD for `plan --from`: asked for alone, an earlier run without spread is refused (exit 2); beside
 * `--estimate`, which any earlier run serves, it is a line that says why there is none.
 */
export function detectableOrRefuse(
  experiment: Experiment,
  plan: Plan,
  earlier: RunFolder,
  withEstimate: boolean,
): PlannedDetectable | { readonly unknown: string } {
  const result = plannedDetectable(experiment, plan, earlier);
  if ('unknown' in result && !withEstimate) throw new ConfigError(result.unknown);
  return result;
}

/** The lines `plan` prints: the sentence, then what it rests on (or why there is none). */
export function detectableLines(
  detectable: PlannedDetectable | { readonly unknown: string },
  from: string,
  plan: { readonly episodes: number; readonly repeats: number },
): string[] {
  if ('unknown' in detectable) return [`minimum detectable difference: unknown: ${detectable.unknown}`];
  const { spread } = detectable;
  const perGame = plan.episodes * plan.repeats;
  return [
    `minimum detectable difference: ${detectable.sentence}`,
    `  from ${from}: episode scores within each agent and game spread with SD ${spread.sd.toFixed(2)} (${spread.episodes} episodes in ${spread.cells} agent-game cells); ` +
      `two arms of ${perGame} episode${perGame === 1 ? '' : 's'} per game each, drawn independently; two-sided 5%, 80% power (docs/ci-and-gating.md)`,
  ];
}
