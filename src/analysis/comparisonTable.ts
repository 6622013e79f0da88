/**
 * A comparison as a terminal table (cli-table3) or markdown, with its notes under it: unpaired rows and
 * why, what was left out, and what fails the gate. When the agents called models, what each side cost.
 */
import Table from 'cli-table3';
import type { ComparisonRow, RunComparison } from './compareRuns.ts';
import { regressions } from './gate.ts';
import { TOTAL } from './episodeSample.ts';
import { formatCost, formatInterval, formatScore, formatSigned, formatSignedCost, formatSignedCount } from './format.ts';
import type { UsageTotals } from '../agent/usage.ts';
import { judgementNotes } from './totalJudgement.ts';

const HEADER = ['agent', 'game', 'episodes', 'baseline', 'candidate', 'difference', '95% CI', 'verdict'];
const NUMERIC = [false, false, true, true, true, true, true, false];
/** What each side cost, and the change beside the change in score: dollars, and tokens in and out. */
const COST_HEADER = ['baseline $', 'candidate $', 'Δ $', 'Δ tokens'];

export interface ComparisonView {
  /** Show every game's row, not only each agent's total; the gate then counts games too. */
  readonly perGame?: boolean;
}

/** Cost columns appear only when a shown row's episodes called a model, on either side. */
const showsCost = (rows: readonly ComparisonRow[]) => rows.some((row) => row.baseline.usage.calls > 0 || row.candidate.usage.calls > 0);

function columns(rows: readonly ComparisonRow[]): { head: string[]; numeric: boolean[]; cost: boolean } {
  const cost = showsCost(rows);
  return cost ? { head: [...HEADER, ...COST_HEADER], numeric: [...NUMERIC, ...COST_HEADER.map(() => true)], cost } : { head: HEADER, numeric: NUMERIC, cost };
}

const tokensOf = (usage: UsageTotals) => usage.input_tokens + usage.output_tokens;

function cells(row: ComparisonRow, cost: boolean): string[] {
  const { baseline, candidate } = row;
  const costs = cost
    ? [
        formatCost(baseline.usage.cost_usd),
        formatCost(candidate.usage.cost_usd),
        formatSignedCost(baseline.usage.cost_usd === null || candidate.usage.cost_usd === null ? null : candidate.usage.cost_usd - baseline.usage.cost_usd),
        formatSignedCount(tokensOf(candidate.usage) - tokensOf(baseline.usage)),
      ]
    : [];
  return [
    row.agent,
    row.game,
    `${row.baseline.episodes} / ${row.candidate.episodes}`,
    formatScore(row.baseline.mean),
    formatScore(row.candidate.mean),
    formatSigned(row.difference.value),
    formatInterval(row.difference.interval, true),
    row.pairing === 'paired' ? row.verdict : `${row.verdict} (${row.pairing})`,
    ...costs,
  ];
}

const shownRows = (comparison: RunComparison, view: ComparisonView) => comparison.rows.filter((row) => view.perGame === true || row.game === TOTAL);

/** Per agent, which games were compared unpaired and why: one sentence when every game shares a reason. */
function unpairedNotes(comparison: RunComparison): string[] {
  const notes: string[] = [];
  const agents = [...new Set(comparison.rows.map((r) => r.agent))];
  for (const agent of agents) {
    const games = comparison.rows.filter((r) => r.agent === agent && r.game !== TOTAL);
    const unpaired = games.filter((r) => r.note !== null);
    if (unpaired.length === 0) continue;
    const reasons = new Set(unpaired.map((r) => r.note));
    if (unpaired.length === games.length && reasons.size === 1) notes.push(`${agent}: compared unpaired on every game: ${unpaired[0]!.note}`);
    else for (const row of unpaired) notes.push(`${agent} ${row.game}: compared unpaired: ${row.note}`);
  }
  return notes;
}

const belowWhat = (threshold: number) => (threshold === 0 ? 'below zero' : `below −${threshold} points`);

/**
 * A shown row that is worse (its interval below zero) but within the threshold: the table says `worse`
 * and the gate "no regression", so a sentence says why both hold.
 */
function withinThresholdNotes(comparison: RunComparison, view: ComparisonView): string[] {
  return shownRows(comparison, view)
    .filter((row) => row.verdict === 'worse' && !row.regression && row.difference.interval !== null)
    .map(
      (row) =>
        `${row.agent} ${row.game}: worse (${formatSigned(row.difference.value)} ${formatInterval(row.difference.interval, true)}) but no regression: ` +
        `the interval does not clear the threshold (its upper end ${formatSigned(row.difference.interval!.high)} is not below −${comparison.threshold})`,
    );
}

/** Sentences under the table: unpaired rows, what was left out, and the gate's reading. */
export function comparisonNotes(comparison: RunComparison, view: ComparisonView = {}): string[] {
  const judged = comparison.rows.flatMap((row) =>
    row.judgement === undefined ? [] : judgementNotes(row.agent, row.difference.value, row.verdict, row.judgement),
  );
  const notes = [...judged, ...unpairedNotes(comparison), ...comparison.notes, ...withinThresholdNotes(comparison, view)];
  const failing = regressions(comparison, view);
  const scope = view.perGame === true ? 'agent totals and games' : 'agent totals';
  notes.push(
    failing.length === 0
      ? `no regression (${scope}; a regression is a difference whose whole 95% interval lies ${belowWhat(comparison.threshold)})`
      : `regression (${scope}, interval wholly ${belowWhat(comparison.threshold)}): ${failing.map((r) => `${r.agent} ${r.game} ${formatSigned(r.difference.value)} ${formatInterval(r.difference.interval, true)}`).join('; ')}`,
  );
  return notes;
}

export function renderComparisonTerminal(comparison: RunComparison, view: ComparisonView = {}): string {
  const rows = shownRows(comparison, view);
  const { head, numeric, cost } = columns(rows);
  const table = new Table({ head, colAligns: numeric.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row, cost));
  const title = `baseline ${comparison.baseline} → candidate ${comparison.candidate}`;
  return [title, table.toString(), ...comparisonNotes(comparison, view).map((note) => `- ${note}`)].join('\n');
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

export function renderComparisonMarkdown(comparison: RunComparison, view: ComparisonView = {}): string {
  const lines = [
    `Baseline \`${escapeCell(comparison.baseline)}\` → candidate \`${escapeCell(comparison.candidate)}\`; scores are mean episode scores, differences candidate − baseline.`,
  ];
  const rows = shownRows(comparison, view);
  const { head, numeric, cost } = columns(rows);
  lines.push('', `| ${head.join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`);
  for (const row of rows) {
    const c = cells(row, cost).map(escapeCell);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  lines.push('', ...comparisonNotes(comparison, view).map((note) => `- ${escapeCell(note)}`));
  return `${lines.join('\n')}\n`;
}
