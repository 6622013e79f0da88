/**
 * The results table: per agent and game its score, best levels, actions and wins, and a total row per
 * agent; when agents reported model calls, their tokens and dollars too. The same rows go to the
 * terminal (cli-table3) and to table.md.
 */
import Table from 'cli-table3';
import { sumUsage, type UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../episode/runEpisode.ts';
import { scoreEpisodes } from './localScoring.ts';

export interface TableRow {
  agent: string;
  game: string;
  episodes: number;
  score: number;
  levels: string;
  actions: number;
  wins: number;
  errors: number;
  usage: UsageTotals;
}

const HEADER = ['agent', 'game', 'episodes', 'score', 'levels', 'actions', 'wins', 'errors'];
const USAGE_HEADER = ['input tokens', 'output tokens', 'cost $'];

export function tableRows(agentLabels: readonly string[], episodes: readonly EpisodeRecord[]): TableRow[] {
  const rows: TableRow[] = [];
  for (const label of agentLabels) {
    const mine = episodes.filter((e) => e.agent === label);
    const card = scoreEpisodes(mine);
    for (const env of card.environments) {
      const ofGame = mine.filter((e) => e.game_id === env.id);
      rows.push({
        agent: label,
        game: env.id,
        episodes: ofGame.length,
        score: env.score,
        levels: `${env.levels_completed}/${env.level_count}`,
        actions: env.actions,
        wins: ofGame.filter((e) => e.outcome === 'win').length,
        errors: ofGame.filter((e) => e.outcome === 'error').length,
        usage: sumUsage(ofGame.map((e) => e.usage)),
      });
    }
    rows.push({
      agent: label,
      game: 'total',
      episodes: mine.length,
      score: card.score,
      levels: `${card.total_levels_completed}/${card.total_levels}`,
      actions: card.total_actions,
      wins: mine.filter((e) => e.outcome === 'win').length,
      errors: mine.filter((e) => e.outcome === 'error').length,
      usage: sumUsage(mine.map((e) => e.usage)),
    });
  }
  return rows;
}

/** Dollars to the hundredth of a cent; `unknown` when a call had no price, never a made-up 0. */
export function formatCost(dollars: number | null): string {
  return dollars === null ? 'unknown' : dollars.toFixed(4);
}

/** Usage columns appear only in runs where some agent called a model. */
const showsUsage = (rows: readonly TableRow[]) => rows.some((row) => row.usage.calls > 0);

function header(rows: readonly TableRow[]): string[] {
  return showsUsage(rows) ? [...HEADER, ...USAGE_HEADER] : HEADER;
}

function cells(row: TableRow, usage: boolean): string[] {
  const base = [row.agent, row.game, String(row.episodes), row.score.toFixed(2), row.levels, String(row.actions), String(row.wins), String(row.errors)];
  return usage ? [...base, String(row.usage.input_tokens), String(row.usage.output_tokens), formatCost(row.usage.cost_usd)] : base;
}

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const head = header(rows);
  const table = new Table({ head, colAligns: head.map((_, i) => (i < 2 ? 'left' : 'right')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row, showsUsage(rows)));
  return table.toString();
}

export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const head = header(rows);
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row, showsUsage(rows));
    if (row.game === 'total') c.forEach((v, i) => (c[i] = i === 0 ? v : `**${v}**`));
    lines.push(`| ${c.join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}
