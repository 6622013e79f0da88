/**
 * The results table: per agent and game, the card's score as the service defines it (the best
 * episode's), the mean episode score with its 95% interval, the spread across repeats, the card's
 * levels, actions against the human baseline, wins, errors and episodes (of those planned), and, when
 * agents called a model, its tokens and dollars; per agent a total row. The same rows go to the
 * terminal (cli-table3), table.md and run.json, with the notes of tableNotes.ts under every one.
 */
import Table from 'cli-table3';
import { TOTAL } from '../../analysis/episodeSample.ts';
import { formatCost, formatCount, formatInterval, formatScore } from '../../analysis/format.ts';
import type { ScorecardAnswer } from '../../protocol/index.ts';
import type { RunReport, TableRow } from '../../runfolder/runReport.ts';
import { shownSpread, showsSpread, tableNotes } from './tableNotes.ts';
import type { ServiceCards } from './tableRows.ts';

export type { TableRow } from '../../runfolder/runReport.ts';
export { type PlannedRun, type ServiceCards, tableRows } from './tableRows.ts';

const HEADER = ['agent', 'game', 'episodes', 'card score', 'mean score', '95% CI', 'levels', 'actions', 'wins', 'errors'];
/** Beside the local card score, wherever the service returned a card: its own score. */
const SERVICE_HEADER = 'service score';
/** Beside the interval, when the plan has repeats: each repeat's score, their mean, SD and range. */
const SPREAD_HEADER = 'repeats: mean ± SD (min–max)';
/** Beside the actions, when baselines are known: how many humans' worth of actions they are. */
const HUMAN_HEADER = '× human actions';
const USAGE_HEADER = ['input tokens', 'cached tokens', 'output tokens', 'cost $', '$ per level'];

/** Usage columns appear only in runs where some agent called a model. */
const showsUsage = (rows: readonly TableRow[]) => rows.some((row) => row.usage.calls > 0);
const showsHuman = (rows: readonly TableRow[]) => rows.some((row) => row.baseline_share != null);

/**
 * The service cards of run.json's agents, from every card of every attempt. An agent with a card lost
 * with its process (a resumed in-process run) has none: no card of the service covers all its episodes,
 * and a service score beside a card score of them all would not agree with it (serviceScoreNote says so).
 */
export function serviceCardsOf(report: Pick<RunReport, 'cards'>): ServiceCards {
  const byAgent = new Map<string, ScorecardAnswer[]>();
  const partial = new Set(agentsWithLostCards(report));
  for (const card of report.cards) {
    if (card.scorecard === null || partial.has(card.agent)) continue;
    const list = byAgent.get(card.agent);
    if (list === undefined) byAgent.set(card.agent, [card.scorecard]);
    else list.push(card.scorecard);
  }
  return byAgent;
}

function agentsWithLostCards(report: Pick<RunReport, 'cards'>): string[] {
  return [...new Set(report.cards.filter((card) => card.state === 'lost').map((card) => card.agent))];
}

/** Said under the table when some agent's service score is left out, and why; undefined when none is. */
export function serviceScoreNote(report: Pick<RunReport, 'cards'>): string | undefined {
  const agents = agentsWithLostCards(report);
  if (agents.length === 0) return undefined;
  return (
    `service score: not shown for ${agents.join(', ')}: a card of an earlier attempt was lost with its process, ` +
    "so no card of the service covers all its episodes; the card score (scored here with the service's code) covers them all"
  );
}

const scoreCell = (score: number | null | undefined) => (score == null ? 'unknown' : formatScore(score));

/** The service's column shows where the service returned a card for some row. */
const showsService = (rows: readonly TableRow[]) => rows.some((row) => row.service_score != null);

interface Shown {
  readonly usage: boolean;
  readonly service: boolean;
  readonly spread: boolean;
  readonly human: boolean;
}

/** `3`, or `3 of 4` (episodes with a result, of those planned) when some have none. */
function episodesCell(row: TableRow): string {
  const missing = row.missing_episodes?.length ?? 0;
  return row.planned_episodes !== undefined && missing > 0 ? `${row.planned_episodes - missing} of ${row.planned_episodes}` : String(row.episodes);
}

const intervalCell = (row: TableRow) => (row.mean_score === null ? 'unknown' : formatInterval(row.interval));

const humanCell = (row: TableRow) => (row.baseline_share == null ? 'unknown' : `${row.baseline_share.toFixed(2)}×`);

function cells(row: TableRow, shown: Shown): string[] {
  const base = [
    row.agent,
    row.game,
    episodesCell(row),
    scoreCell(row.card_score),
    ...(shown.service ? [row.service_score == null ? '–' : formatScore(row.service_score)] : []),
    scoreCell(row.mean_score),
    intervalCell(row),
    ...(shown.spread ? [shownSpread(row)] : []),
    `${row.levels_completed}/${row.level_count}`,
    formatCount(row.actions),
    ...(shown.human ? [humanCell(row)] : []),
    String(row.wins),
    String(row.errors),
  ];
  if (!shown.usage) return base;
  const { input_tokens, cached_input_tokens, output_tokens, cost_usd } = row.usage;
  const perLevel = row.cost_per_level == null ? '–' : formatCost(row.cost_per_level);
  return [...base, formatCount(input_tokens), formatCount(cached_input_tokens), formatCount(output_tokens), formatCost(cost_usd), perLevel];
}

/** The header and which columns are numbers, with the optional columns the rows have. */
function columns(rows: readonly TableRow[]): { head: string[]; numeric: boolean[]; shown: Shown } {
  const shown = { usage: showsUsage(rows), service: showsService(rows), spread: showsSpread(rows), human: showsHuman(rows) };
  const head = [
    ...HEADER.slice(0, 4),
    ...(shown.service ? [SERVICE_HEADER] : []),
    ...HEADER.slice(4, 6),
    ...(shown.spread ? [SPREAD_HEADER] : []),
    ...HEADER.slice(6, 8),
    ...(shown.human ? [HUMAN_HEADER] : []),
    ...HEADER.slice(8),
    ...(shown.usage ? USAGE_HEADER : []),
  ];
  const numeric = head.map((_, i) => i >= 2);
  return { head, numeric, shown };
}

/** The notes under a table, one a line. */
const notesBelow = (rows: readonly TableRow[]) =>
  `${tableNotes(rows)
    .map((line) => `\n${line}`)
    .join('')}\n`;

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const { head, numeric, shown } = columns(rows);
  const table = new Table({ head, colAligns: numeric.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row, shown));
  return table.toString() + notesBelow(rows);
}

/** The columns a narrow terminal keeps: who, where, the scores, the levels and the dollars when a model was called. */
const COMPACT_HEADER = ['agent', 'game', 'card', 'mean', '95% CI', 'levels'];

/**
 * The table for a terminal narrower than the full one (133 columns, 200 and more with a model's): the
 * scores and levels only (and the spread across repeats when there are repeats), without borders
 * between rows; table.md and run.json keep every column.
 */
export function renderCompactTable(rows: readonly TableRow[]): string {
  const usage = showsUsage(rows);
  const spread = showsSpread(rows);
  const head = [...COMPACT_HEADER.slice(0, 5), ...(spread ? ['repeats'] : []), COMPACT_HEADER[5]!, ...(usage ? ['cost $'] : [])];
  const table = new Table({
    head,
    colAligns: head.map((_, i) => (i >= 2 ? 'right' : 'left')),
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows) {
    table.push([
      row.agent,
      row.game,
      scoreCell(row.card_score),
      scoreCell(row.mean_score),
      intervalCell(row),
      ...(spread ? [shownSpread(row)] : []),
      `${row.levels_completed}/${row.level_count}`,
      ...(usage ? [formatCost(row.usage.cost_usd)] : []),
    ]);
  }
  return table.toString() + notesBelow(rows);
}

/** The widest line of a rendered table, in characters. */
export const tableWidth = (rendered: string): number => Math.max(0, ...rendered.split('\n').map((line) => [...line].length));

/** table.md's table and its notes (levelsSection.ts adds the section on levels after the run's own notes). */
export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const { head, numeric, shown } = columns(rows);
  const lines = [`| ${head.join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row, shown);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n${notesBelow(rows)}`;
}
