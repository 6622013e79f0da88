/**
 * The results table: per agent and game its score, best levels, actions and wins, and a total row per
 * agent. The same rows go to the terminal (cli-table3) and to table.md.
 */
import Table from 'cli-table3';
import type { EpisodeRecord } from '../episode/runEpisode.ts';
import { gamesWithoutBaselines, scoreEpisodes } from './localScoring.ts';

export interface TableRow {
  agent: string;
  game: string;
  episodes: number;
  /** Null when the game's level baselines are unknown (for the total: any game's). */
  score: number | null;
  levels: string;
  actions: number;
  wins: number;
  errors: number;
}

const HEADER = ['agent', 'game', 'episodes', 'score', 'levels', 'actions', 'wins', 'errors'];

export function tableRows(agentLabels: readonly string[], episodes: readonly EpisodeRecord[]): TableRow[] {
  const rows: TableRow[] = [];
  for (const label of agentLabels) {
    const mine = episodes.filter((e) => e.agent === label);
    const card = scoreEpisodes(mine);
    const unknown = new Set(gamesWithoutBaselines(mine));
    for (const env of card.environments) {
      const ofGame = mine.filter((e) => e.game_id === env.id);
      rows.push({
        agent: label,
        game: env.id,
        episodes: ofGame.length,
        score: unknown.has(env.id) ? null : env.score,
        levels: `${env.levels_completed}/${env.level_count}`,
        actions: env.actions,
        wins: ofGame.filter((e) => e.outcome === 'win').length,
        errors: ofGame.filter((e) => e.outcome === 'error').length,
      });
    }
    rows.push({
      agent: label,
      game: 'total',
      episodes: mine.length,
      score: unknown.size > 0 ? null : card.score,
      levels: `${card.total_levels_completed}/${card.total_levels}`,
      actions: card.total_actions,
      wins: mine.filter((e) => e.outcome === 'win').length,
      errors: mine.filter((e) => e.outcome === 'error').length,
    });
  }
  return rows;
}

const cells = (row: TableRow) => [row.agent, row.game, String(row.episodes), row.score === null ? 'unknown' : row.score.toFixed(2), row.levels, String(row.actions), String(row.wins), String(row.errors)];

/** Said under a table with an unknown score. */
const UNKNOWN_NOTE = "unknown: the service gives no level baselines for a game (neither in its game list nor in its scorecard), so its score can't be computed here";

const note = (rows: readonly TableRow[]) => (rows.some((row) => row.score === null) ? `\n${UNKNOWN_NOTE}\n` : '');

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const table = new Table({ head: HEADER, colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'], style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row));
  return table.toString() + note(rows);
}

export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `| ${HEADER.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row);
    if (row.game === 'total') c.forEach((v, i) => (c[i] = i === 0 ? v : `**${v}**`));
    lines.push(`| ${c.join(' | ')} |`);
  }
  return lines.join('\n') + '\n' + note(rows);
}
