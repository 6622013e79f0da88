/**
 * Scores a run's episodes with the reference service's own scoring code, so the result needs no
 * service and can be compared number for number with the scorecard the service returns.
 */
import type { EnvironmentEntry, RunEntry, Scorecard } from '../../protocol/index.ts';
import { buildEnvironmentEntry, scoreCard, type ScoredCard } from '../../reference/scoring.ts';
import type { EpisodeRecord } from '../episode/runEpisode.ts';
import { runEntryOf } from '../episode/runLedger.ts';

/**
 * One episode's own score: the score its game's environment entry would have if the episode were the
 * only one on the card, i.e. its best run (SPEC §5), built by the service's scoring code.
 */
export function episodeScore(episode: Pick<EpisodeRecord, 'game_id' | 'baselines' | 'runs'>): number {
  return buildEnvironmentEntry({
    gameId: episode.game_id,
    levelCount: episode.baselines.length,
    runs: episode.runs.map((run) => runEntryOf(episode.game_id, episode.baselines, run)),
  }).score;
}

/** The scored card of one agent's episodes: environments sorted by game id, runs in the order they began. */
export function scoreEpisodes(episodes: readonly EpisodeRecord[]): ScoredCard {
  const byGame = new Map<string, { tags: string[]; baselines: number[]; runs: Array<{ sequence: number; entry: RunEntry }> }>();
  for (const episode of episodes) {
    let game = byGame.get(episode.game_id);
    if (game === undefined) {
      game = { tags: episode.game_tags, baselines: episode.baselines, runs: [] };
      byGame.set(episode.game_id, game);
    }
    for (const run of episode.runs) game.runs.push({ sequence: run.sequence, entry: runEntryOf(episode.game_id, episode.baselines, run) });
  }
  const environments = [...byGame.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .filter(([, game]) => game.runs.length > 0)
    .map(([gameId, game]) => ({
      gameTags: game.tags,
      environment: buildEnvironmentEntry({
        gameId,
        levelCount: game.baselines.length,
        runs: game.runs.sort((a, b) => a.sequence - b.sequence).map((run) => run.entry),
      }),
    }));
  return scoreCard(environments);
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Where the local score and the service's scorecard differ, as sentences (empty when they agree):
 * card score, totals, and per environment its score, actions and levels.
 */
export function scoreDifferences(local: ScoredCard, card: Scorecard): string[] {
  const problems: string[] = [];
  if (!close(local.score, card.score)) problems.push(`score: local ${local.score}, service ${card.score}`);
  for (const key of ['total_actions', 'total_levels_completed', 'total_levels', 'total_environments', 'total_environments_completed'] as const) {
    if (local[key] !== card[key]) problems.push(`${key}: local ${local[key]}, service ${card[key]}`);
  }
  const remote = new Map<string, EnvironmentEntry>(card.environments.map((e) => [e.id, e]));
  for (const env of local.environments) {
    const other = remote.get(env.id);
    if (other === undefined) {
      problems.push(`${env.id}: missing from the service's scorecard`);
      continue;
    }
    if (!close(env.score, other.score)) problems.push(`${env.id}.score: local ${env.score}, service ${other.score}`);
    if (env.actions !== other.actions) problems.push(`${env.id}.actions: local ${env.actions}, service ${other.actions}`);
    if (env.levels_completed !== other.levels_completed)
      problems.push(`${env.id}.levels_completed: local ${env.levels_completed}, service ${other.levels_completed}`);
  }
  return problems;
}
