/**
 * Scores a run's episodes with the reference service's own scoring code, so the result needs no
 * service and can be compared number for number with the scorecard the service returns.
 */
import type { EnvironmentAnswer, EnvironmentEntry, GameDescriptor, ScorecardAnswer } from '../protocol/index.ts';
import { buildEnvironmentEntry, scoreCard, type ScoredCard } from '../reference/scoring.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { type RecordedRun, runEntryOf } from '../runfolder/episodeRecord.ts';
import type { LocalScore } from '../runfolder/runReport.ts';

/** Whether the episode knew its game's level baselines (records written before the field existed did). */
export function knewBaselines(episode: EpisodeRecord): boolean {
  return episode.baselines_known !== false;
}

/**
 * Said once wherever a score is unknown (run.json, tables, junit.xml, the report, compare): where the
 * service gives no level baselines for a game, its scores cannot be computed here, and they are shown as
 * unknown (null in JSON), never as 0.
 */
export const UNKNOWN_SCORES_REASON =
  "unknown: the service gives no level baselines for a game (neither in its game list nor in its scorecard), so its scores can't be computed here";

/** An episode's own score, or null when its game's baselines were unknown (from the log, else scored here). */
export function ownScore(episode: EpisodeRecord): number | null {
  if (!knewBaselines(episode)) return null;
  return typeof episode.score === 'number' ? episode.score : episodeScore(episode);
}

/** Game ids among the episodes whose level baselines no episode knew. */
export function gamesWithoutBaselines(episodes: readonly EpisodeRecord[]): string[] {
  const known = new Set(episodes.filter(knewBaselines).map((e) => e.game_id));
  return [...new Set(episodes.map((e) => e.game_id))].filter((id) => !known.has(id)).sort();
}

/** The baselines to score an episode's runs against: its game's, or (unknown) 0 for each of its levels. */
function scoringBaselines(episode: Pick<EpisodeRecord, 'baselines' | 'baselines_known' | 'win_levels'>): number[] {
  return episode.baselines_known === false ? new Array<number>(episode.win_levels).fill(0) : episode.baselines;
}

/**
 * One episode's own score: the score its game's environment entry would have if the episode were the
 * only one on the card, i.e. its best run (docs/protocol.md §5), built by the service's scoring code.
 */
export function episodeScore(episode: ScoredEpisode): number {
  return episodeEnvironment(episode).score;
}

/**
 * The levels its game has on the card, as the service counts them: one per baseline (the toolkit's bt33:
 * 3, though its frames say 5), more where a run completed levels past them; `win_levels` when unknown.
 */
export function episodeLevelCount(episode: ScoredEpisode): number {
  return episodeEnvironment(episode).level_count;
}

type ScoredEpisode = Pick<EpisodeRecord, 'game_id' | 'baselines' | 'baselines_known' | 'win_levels' | 'runs'>;

/** The environment entry of a card holding this one episode. */
function episodeEnvironment(episode: ScoredEpisode): EnvironmentEntry {
  const baselines = scoringBaselines(episode);
  return buildEnvironmentEntry({
    gameId: episode.game_id,
    levelCount: baselines.length,
    runs: episode.runs.map((run) => runEntryOf(episode.game_id, baselines, run)),
  });
}

/**
 * The scored card of one agent's episodes: environments sorted by game id, runs in the order they
 * began. A game whose baselines no episode knew is scored against baselines of 0, one per level (its
 * level count from `win_levels`): its actions and levels count, its scores are 0 (and reported unknown).
 * `unplayed` games enter with no run, scoring 0, as a competition card's do at close (docs/protocol.md §5).
 */
export function scoreEpisodes(episodes: readonly EpisodeRecord[], unplayed: readonly GameDescriptor[] = []): ScoredCard {
  const byGame = new Map<
    string,
    { tags: string[]; baselines: number[] | undefined; levels: number; runs: Array<{ sequence: number; run: RecordedRun }>; unplayed?: true }
  >();
  for (const episode of episodes) {
    let game = byGame.get(episode.game_id);
    if (game === undefined) {
      game = { tags: episode.game_tags, baselines: undefined, levels: 0, runs: [] };
      byGame.set(episode.game_id, game);
    }
    if (game.baselines === undefined && knewBaselines(episode)) game.baselines = episode.baselines;
    game.levels = Math.max(game.levels, episode.win_levels);
    for (const run of episode.runs) game.runs.push({ sequence: run.sequence, run });
  }
  for (const game of unplayed) {
    if ((byGame.get(game.game_id)?.runs.length ?? 0) > 0) continue;
    byGame.set(game.game_id, { tags: game.tags ?? [], baselines: game.baseline_actions ?? [], levels: 0, runs: [], unplayed: true });
  }
  const environments = [...byGame.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .filter(([, game]) => game.runs.length > 0 || game.unplayed === true)
    .map(([gameId, game]) => {
      const baselines = game.baselines ?? new Array<number>(game.levels).fill(0);
      return {
        gameTags: game.tags,
        environment: buildEnvironmentEntry({
          gameId,
          levelCount: baselines.length,
          runs: game.runs.sort((a, b) => a.sequence - b.sequence).map(({ run }) => runEntryOf(gameId, baselines, run)),
        }),
      };
    });
  return scoreCard(environments);
}

/**
 * A locally scored card as run.json keeps it (LocalScore): without each environment's runs, and with
 * null for every score that depends on a game in `withoutBaselines` (the card's, the game's, the tags').
 */
export function localScoreOf(card: ScoredCard, withoutBaselines: ReadonlySet<string>): LocalScore {
  const anyUnknown = card.environments.some((environment) => withoutBaselines.has(environment.id));
  return {
    ...card,
    score: anyUnknown ? null : card.score,
    environments: card.environments.map(({ runs: _runs, ...environment }) => ({
      ...environment,
      score: withoutBaselines.has(environment.id) ? null : environment.score,
    })),
    // A tag pools the levels of its games; which games a tag holds is not kept here, so any unknown game leaves every pool unknown.
    tags_scores: card.tags_scores.map((tag) => ({ ...tag, score: anyUnknown ? null : tag.score })),
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Where the local score and the service's scorecard differ, as sentences (empty when they agree):
 * card score, totals, and per environment its score, actions and levels. A field the service left out
 * is not compared (the transport has warned about it).
 */
export function scoreDifferences(local: ScoredCard, card: ScorecardAnswer, withoutBaselines: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  // Without a game's baselines its local scores are not computed, nor (if it was never played) its
  // level count: a score the service gives differs from an unknown one; counts compare as they are.
  const scoresKnown = withoutBaselines.size === 0;
  if (card.score != null && !(scoresKnown && close(local.score, card.score)))
    problems.push(`score: local ${scoresKnown ? local.score : 'unknown'}, service ${card.score}`);
  for (const key of ['total_actions', 'total_levels_completed', 'total_levels', 'total_environments', 'total_environments_completed'] as const) {
    if (key === 'total_levels' && !scoresKnown) continue;
    if (card[key] != null && local[key] !== card[key]) problems.push(`${key}: local ${local[key]}, service ${card[key]}`);
  }
  if (card.environments == null) return problems;
  const remote = new Map<string, EnvironmentAnswer>(card.environments.map((e) => [e.id, e]));
  for (const env of local.environments) {
    const other = remote.get(env.id);
    if (other === undefined) {
      problems.push(`${env.id}: missing from the service's scorecard`);
      continue;
    }
    const known = !withoutBaselines.has(env.id);
    if (other.score != null && !(known && close(env.score, other.score)))
      problems.push(`${env.id}.score: local ${known ? env.score : 'unknown'}, service ${other.score}`);
    if (other.actions != null && env.actions !== other.actions) problems.push(`${env.id}.actions: local ${env.actions}, service ${other.actions}`);
    if (other.levels_completed != null && env.levels_completed !== other.levels_completed)
      problems.push(`${env.id}.levels_completed: local ${env.levels_completed}, service ${other.levels_completed}`);
  }
  return problems;
}
