/**
 * The results table: per agent and game, the card's score as the service defines it (the best
 * episode's), the mean episode score with its 95% interval, the card's levels, actions, wins, errors
 * and episodes, and, when agents called a model, its tokens and dollars; per agent a total row. The same
 * rows go to the terminal (cli-table3), table.md and run.json.
 */
import Table from 'cli-table3';
import { sumUsage } from '../../agent/usage.ts';
import { episodesByAgentAndGame, type ScoredEpisode, TOTAL } from '../../analysis/episodeSample.ts';
import { formatCost, formatCount, formatInterval, formatScore } from '../../analysis/format.ts';
import { summarizeScores } from '../../analysis/scoreSummary.ts';
import type { EpisodeRecord } from '../episode/episodeRecord.ts';
import { gamesWithoutBaselines, scoreEpisodes } from './localScoring.ts';
import { runEpisodesOf } from './runFolder.ts';
import type { TableRow } from './runReport.ts';

export type { TableRow } from './runReport.ts';

const HEADER = ['agent', 'game', 'episodes', 'card score', 'mean score', '95% CI', 'levels', 'actions', 'wins', 'errors'];
const NUMERIC = [false, false, true, true, true, true, true, true, true, true];
const USAGE_HEADER = ['input tokens', 'cached tokens', 'output tokens', 'cost $'];

/** Usage columns appear only in runs where some agent called a model. */
const showsUsage = (rows: readonly TableRow[]) => rows.some((row) => row.usage.calls > 0);

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
        level_count: environment?.level_count ?? ofGame[0]!.baselines.length,
        ...(unknown.has(game) ? { baselines_known: false } : {}),
        actions: ofGame.reduce((sum, e) => sum + e.actions, 0),
        wins: count(ofGame, 'win'),
        errors: count(ofGame, 'error'),
        usage: sumUsage(ofGame.map((e) => e.usage)),
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
      usage: sumUsage(mine.map((e) => e.usage)),
    });
  }
  return rows;
}

/** Scores of a game whose level baselines are unknown are not computed: the table says so. */
const scoresKnown = (row: TableRow) => row.baselines_known !== false;

/** Said under a table with an unknown score. */
const UNKNOWN_NOTE =
  "unknown: the service gives no level baselines for a game (neither in its game list nor in its scorecard), so its scores can't be computed here";

const note = (rows: readonly TableRow[]) => (rows.every(scoresKnown) ? '' : `\n${UNKNOWN_NOTE}\n`);

function cells(row: TableRow, usage: boolean): string[] {
  const known = scoresKnown(row);
  const base = [
    row.agent,
    row.game,
    String(row.episodes),
    known ? formatScore(row.card_score) : 'unknown',
    known ? formatScore(row.mean_score) : 'unknown',
    known ? formatInterval(row.interval) : 'unknown',
    `${row.levels_completed}/${row.level_count}`,
    formatCount(row.actions),
    String(row.wins),
    String(row.errors),
  ];
  if (!usage) return base;
  const { input_tokens, cached_input_tokens, output_tokens, cost_usd } = row.usage;
  return [...base, formatCount(input_tokens), formatCount(cached_input_tokens), formatCount(output_tokens), formatCost(cost_usd)];
}

/** The header and which columns are numbers, with the usage columns when the rows have usage. */
function columns(rows: readonly TableRow[]): { head: string[]; numeric: boolean[]; usage: boolean } {
  const usage = showsUsage(rows);
  return usage
    ? { head: [...HEADER, ...USAGE_HEADER], numeric: [...NUMERIC, ...USAGE_HEADER.map(() => true)], usage }
    : { head: HEADER, numeric: NUMERIC, usage };
}

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const { head, numeric, usage } = columns(rows);
  const table = new Table({ head, colAligns: numeric.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row, usage));
  return table.toString() + note(rows);
}

export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const { head, numeric, usage } = columns(rows);
  const lines = [`| ${head.join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row, usage);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n${note(rows)}`;
}
