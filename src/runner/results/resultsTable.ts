/**
 * The results table: per agent and game, the card's score as the service defines it (the best
 * episode's), the mean episode score with its 95% interval, the card's levels, actions, wins, errors
 * and episodes; per agent a total row. The same rows go to the terminal (cli-table3), table.md and
 * run.json.
 */
import Table from 'cli-table3';
import { episodesByAgentAndGame, type ScoredEpisode, TOTAL } from '../../analysis/episodeSample.ts';
import { formatInterval, formatScore } from '../../analysis/format.ts';
import { summarizeScores } from '../../analysis/scoreSummary.ts';
import type { EpisodeRecord } from '../episode/episodeRecord.ts';
import { gamesWithoutBaselines, scoreEpisodes } from './localScoring.ts';
import { runEpisodesOf } from './runFolder.ts';
import type { TableRow } from './runReport.ts';

export type { TableRow } from './runReport.ts';

const HEADER = ['agent', 'game', 'episodes', 'card score', 'mean score', '95% CI', 'levels', 'actions', 'wins', 'errors'];
const NUMERIC = [false, false, true, true, true, true, true, true, true, true];

const count = (episodes: readonly EpisodeRecord[], outcome: EpisodeRecord['outcome']) => episodes.filter((e) => e.outcome === outcome).length;

export function tableRows(agentLabels: readonly string[], episodes: readonly EpisodeRecord[]): TableRow[] {
  const scored = episodesByAgentAndGame(runEpisodesOf('run', agentLabels, episodes).episodes);
  const rows: TableRow[] = [];
  for (const label of agentLabels) {
    const mine = episodes.filter((e) => e.agent === label);
    const card = scoreEpisodes(mine);
    const unknown = new Set(gamesWithoutBaselines(mine));
    const byGame = scored.get(label) ?? new Map<string, ScoredEpisode[]>();
    const stats = summarizeScores(new Map([...byGame].map(([game, list]) => [game, list.map((e) => e.score)])));
    for (const [game, estimate] of stats.games) {
      const ofGame = mine.filter((e) => e.game_id === game);
      const environment = card.environments.find((env) => env.id === game);
      rows.push({
        agent: label,
        game,
        episodes: ofGame.length,
        card_score: environment?.score ?? 0,
        mean_score: estimate.value,
        interval: estimate.interval,
        levels_completed: environment?.levels_completed ?? 0,
        level_count: environment?.level_count ?? ofGame[0].baselines.length,
        ...(unknown.has(game) ? { baselines_known: false } : {}),
        actions: ofGame.reduce((sum, e) => sum + e.actions, 0),
        wins: count(ofGame, 'win'),
        errors: count(ofGame, 'error'),
      });
    }
    rows.push({
      agent: label,
      game: TOTAL,
      episodes: mine.length,
      card_score: card.score,
      mean_score: stats.total?.value ?? 0,
      interval: stats.total?.interval ?? null,
      levels_completed: card.total_levels_completed,
      level_count: card.total_levels,
      ...(unknown.size > 0 ? { baselines_known: false } : {}),
      actions: mine.reduce((sum, e) => sum + e.actions, 0),
      wins: count(mine, 'win'),
      errors: count(mine, 'error'),
    });
  }
  return rows;
}

/** Scores of a game whose level baselines are unknown are not computed: the table says so. */
const scoresKnown = (row: TableRow) => row.baselines_known !== false;

const cells = (row: TableRow) => [
  row.agent,
  row.game,
  String(row.episodes),
  scoresKnown(row) ? formatScore(row.card_score) : 'unknown',
  scoresKnown(row) ? formatScore(row.mean_score) : 'unknown',
  scoresKnown(row) ? formatInterval(row.interval) : 'unknown',
  `${row.levels_completed}/${row.level_count}`,
  String(row.actions),
  String(row.wins),
  String(row.errors),
];

/** Said under a table with an unknown score. */
const UNKNOWN_NOTE =
  "unknown: the service gives no level baselines for a game (neither in its game list nor in its scorecard), so its scores can't be computed here";

const note = (rows: readonly TableRow[]) => (rows.every(scoresKnown) ? '' : `\n${UNKNOWN_NOTE}\n`);

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const table = new Table({ head: HEADER, colAligns: NUMERIC.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row));
  return table.toString() + note(rows);
}

export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `| ${NUMERIC.map((n) => (n ? '---:' : '---')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n${note(rows)}`;
}
