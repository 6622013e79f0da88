/**
 * The rows of the results table: per agent and every game the plan declared, then the agent's total.
 * Denominators come from the plan, never from the results present: a planned episode without a result
 * makes its row's mean (and the total's) unknown and is named in the row, so a crashed game or a repeat
 * that never ran cannot lift a mean by dropping out of it. The total's interval is clustered by game
 * (each game one draw of the games the agent could meet); a row's spread across repeats sits beside it.
 */
import { sumUsage } from '../../agent/usage.ts';
import { episodesByAgentAndGame, type ScoredEpisode, TOTAL } from '../../analysis/episodeSample.ts';
import { bootstrapOverGames } from '../../analysis/gameClustered.ts';
import { baselineShare, costPerLevel } from '../../analysis/humanBaseline.ts';
import { levelSolveCounts, meanActionsPerLevel, meanSecondsPerLevel } from '../../analysis/levelProgress.ts';
import { gamesWithoutBaselines, scoreEpisodes } from '../../analysis/localScoring.ts';
import { episodeName, episodesWithoutResult, type PlannedEpisode } from '../../analysis/planDenominators.ts';
import { repeatSpread } from '../../analysis/repeatSpread.ts';
import { runEpisodesOf } from '../../analysis/runEpisodes.ts';
import { intervalWithinScoreRange, summarizeScores } from '../../analysis/scoreSummary.ts';
import type { ScorecardAnswer } from '../../protocol/index.ts';
import type { ScoredCard } from '../../reference/scoring.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { TableRow } from '../../runfolder/runReport.ts';

/** Per agent label, every card the service returned for it (one per attempt or shard). */
export type ServiceCards = ReadonlyMap<string, readonly ScorecardAnswer[]>;

/** The plan the rows are counted against: its episodes (of this shard, in a sharded run) and how many make one repeat. */
export interface PlannedRun {
  readonly episodes: readonly PlannedEpisode[];
  readonly episodesPerRepeat: number;
  readonly repeats: number;
}

/** `{ key: value }`, or nothing when the value is unknown for this run (its records predate the field). */
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

const count = (episodes: readonly EpisodeRecord[], outcome: EpisodeRecord['outcome']) => episodes.filter((e) => e.outcome === outcome).length;

/**
 * The service's score for a game: its environment's score (its best run) on the agent's cards, the best
 * of them when several cards hold the game (a resumed or sharded run), as one card of all would say.
 */
function serviceGameScore(cards: readonly ScorecardAnswer[], game: string): number | null {
  const scores = cards.flatMap((card) => card.environments?.filter((env) => env.id === game && env.score != null).map((env) => env.score!) ?? []);
  return scores.length === 0 ? null : Math.max(...scores);
}

/** The service's score for the agent in total: the mean of its game scores, as a card's; null when a game has none. */
function serviceTotalScore(gameScores: readonly (number | null)[]): number | null {
  if (gameScores.length === 0 || gameScores.some((score) => score === null)) return null;
  return (gameScores as number[]).reduce((sum, score) => sum + score, 0) / gameScores.length;
}

/** What every row of an agent is built from. */
interface AgentPart {
  readonly label: string;
  readonly mine: readonly EpisodeRecord[];
  readonly scored: ReadonlyMap<string, readonly ScoredEpisode[]>;
  readonly card: ScoredCard;
  readonly unknown: ReadonlySet<string>;
  readonly planned: readonly PlannedEpisode[];
  readonly missing: readonly string[];
}

function spreadOf(episodes: readonly ScoredEpisode[]): TableRow['repeat_spread'] {
  const spread = repeatSpread(episodes.map((e) => ({ game: e.game, repeat: e.repeat ?? 0, score: e.score })));
  return spread === null ? null : { ...spread, scores: [...spread.scores] };
}

/** The columns every row has, from its own episodes: counts, usage, levels against the human baseline. */
function countedColumns(episodes: readonly EpisodeRecord[]) {
  const usage = sumUsage(episodes.map((e) => e.usage));
  const levelsSolved = episodes.reduce((sum, e) => sum + e.levels_completed, 0);
  return {
    episodes: episodes.length,
    actions: episodes.reduce((sum, e) => sum + e.actions, 0),
    wins: count(episodes, 'win'),
    errors: count(episodes, 'error'),
    usage,
    baseline_share: baselineShare(episodes),
    cost_per_level: usage.calls === 0 ? null : costPerLevel(usage.cost_usd, levelsSolved),
  };
}

function gameRow(part: AgentPart, game: string, serviceScore: number | null, plan: PlannedRun | undefined): TableRow {
  const ofGame = part.mine.filter((e) => e.game_id === game);
  const environment = part.card.environments.find((env) => env.id === game);
  const scores = part.scored.get(game) ?? [];
  const missing = part.missing.filter((name) => name.startsWith(`${game} `));
  const complete = missing.length === 0 && ofGame.length > 0;
  const known = complete && !part.unknown.has(game) && scores.length > 0;
  const estimate = known ? summarizeScores(new Map([[game, scores.map((e) => e.score)]])).games.get(game) : undefined;
  const levels = environment?.level_count ?? ofGame[0]?.win_levels ?? 0;
  return {
    agent: part.label,
    game,
    ...countedColumns(ofGame),
    card_score: ofGame.length > 0 && !part.unknown.has(game) ? (environment?.score ?? 0) : null,
    service_score: serviceScore,
    mean_score: estimate?.value ?? null,
    interval: estimate?.interval ?? null,
    interval_method: 'episode-bootstrap',
    repeat_spread: known ? spreadOf(scores) : null,
    ...(plan === undefined ? {} : { planned_episodes: part.planned.filter((p) => p.game === game).length, missing_episodes: missing }),
    levels_completed: environment?.levels_completed ?? 0,
    level_count: levels,
    ...(part.unknown.has(game) ? { baselines_known: false } : {}),
    level_solves: levelSolveCounts(ofGame, levels),
    level_actions: meanActionsPerLevel(ofGame, levels),
    ...optional('level_seconds', meanSecondsPerLevel(ofGame, levels)),
  };
}

/**
 * The total: the mean over games of the game means, its interval clustered by game (whole games
 * resampled); with one game there is nothing to resample between games, and the interval is that
 * game's over its episodes. Unknown when any game's is: a missing episode or unknown baselines.
 */
function totalRow(part: AgentPart, games: readonly TableRow[], serviceScores: readonly (number | null)[], plan: PlannedRun | undefined): TableRow {
  const means = games.map((row) => row.mean_score);
  const known = means.length > 0 && means.every((m) => m !== null);
  const clustered = known && games.length > 1 ? bootstrapOverGames(means as number[]) : undefined;
  const interval = clustered ? intervalWithinScoreRange(clustered.interval) : known ? (games[0]?.interval ?? null) : null;
  const everyGamePlayed = games.every((row) => row.episodes > 0);
  return {
    agent: part.label,
    game: TOTAL,
    ...countedColumns(part.mine),
    card_score: part.unknown.size === 0 && everyGamePlayed ? part.card.score : null,
    service_score: serviceTotalScore(serviceScores),
    mean_score: known ? (means as number[]).reduce((a, b) => a + b, 0) / means.length : null,
    interval,
    interval_method: games.length > 1 ? 'cluster-bootstrap' : 'episode-bootstrap',
    repeat_spread: known ? spreadOf([...part.scored.values()].flat()) : null,
    ...(plan === undefined ? {} : { planned_episodes: part.planned.length, missing_episodes: [...part.missing] }),
    levels_completed: part.card.total_levels_completed,
    level_count: part.card.total_levels,
    ...(part.unknown.size === 0 ? {} : { baselines_known: false }),
  };
}

function agentPart(label: string, episodes: readonly EpisodeRecord[], scored: ReadonlyMap<string, readonly ScoredEpisode[]>, plan?: PlannedRun): AgentPart {
  const mine = episodes.filter((e) => e.agent === label);
  const planned = plan?.episodes.filter((p) => p.agent === label) ?? [];
  // An episode the run's stop cut short has a record but no result of its own: a resume plays it again.
  const finished = mine.filter((e) => e.cut_by_run_stop !== true);
  const missing = episodesWithoutResult(planned, finished).map((p) => episodeName(p, plan ?? { episodesPerRepeat: 1, repeats: 1 }, false));
  return { label, mine, scored, card: scoreEpisodes(mine), unknown: new Set(gamesWithoutBaselines(mine)), planned, missing };
}

/**
 * Rows per agent and game (every game the plan declared, and any other with results), then the agent's
 * total. Scores are null where they are unknown; `service_score` is the service's own beside them.
 */
export function tableRows(
  agentLabels: readonly string[],
  episodes: readonly EpisodeRecord[],
  serviceCards: ServiceCards = new Map(),
  plan?: PlannedRun,
): TableRow[] {
  const scored = episodesByAgentAndGame(runEpisodesOf('run', agentLabels, episodes, plan?.episodesPerRepeat).episodes);
  const rows: TableRow[] = [];
  for (const label of agentLabels) {
    const part = agentPart(label, episodes, scored.get(label) ?? new Map(), plan);
    const games = [...new Set([...part.planned.map((p) => p.game), ...part.mine.map((e) => e.game_id)])].sort();
    const serviceScores = games.map((game) => serviceGameScore(serviceCards.get(label) ?? [], game));
    const gameRows = games.map((game, i) => gameRow(part, game, serviceScores[i]!, plan));
    rows.push(...gameRows, totalRow(part, gameRows, serviceScores, plan));
  }
  return rows;
}
