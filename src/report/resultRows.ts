/**
 * The report's results table: the runner's table rows (card score, levels, actions, wins, errors per
 * agent and game, and per agent in total), each with the mean of its episodes' own scores and, when
 * run.json records one, the confidence interval of that mean.
 */
import type { EpisodeRecord } from '../runner/episode/episodeRecord.ts';
import { tableRows } from '../runner/results/resultsTable.ts';
import { runEntryOf } from '../runner/episode/runLedger.ts';
import { type RecordedStatistic, statisticKey } from './intervals.ts';
import { TOTAL_ROW, type ResultRow } from './pageData.ts';

/**
 * An episode's own score: its best run, scored with the service's scoring code. A `score` the runner
 * recorded in episodes.jsonl is taken as it is.
 */
export function episodeScore(episode: EpisodeRecord): number {
  const recorded = (episode as { score?: unknown }).score;
  if (typeof recorded === 'number') return recorded;
  let best = 0;
  for (const run of episode.runs) best = Math.max(best, runEntryOf(episode.game_id, episode.baselines, run).score);
  return best;
}

export function resultRows(agentLabels: readonly string[], episodes: readonly EpisodeRecord[], statistics: ReadonlyMap<string, RecordedStatistic>): ResultRow[] {
  const scores = new Map<EpisodeRecord, number>(episodes.map((episode) => [episode, episodeScore(episode)]));
  return tableRows(agentLabels, episodes).map((row) => {
    const mine = episodes.filter((e) => e.agent === row.agent && (row.game === TOTAL_ROW || e.game_id === row.game));
    const recorded = statistics.get(statisticKey(row.agent, row.game));
    return {
      agent: row.agent,
      game: row.game,
      episodes: row.episodes,
      score: row.score,
      mean: recorded?.mean ?? mean(mine.map((e) => scores.get(e)!)),
      interval: recorded?.interval ?? null,
      levels: row.levels,
      actions: row.actions,
      wins: row.wins,
      errors: row.errors,
    };
  });
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
