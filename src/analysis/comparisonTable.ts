/**
 * A comparison as a terminal table (cli-table3) or markdown, with its notes under it: unpaired rows and
 * why, what was left out, and what fails the gate.
 */
import Table from 'cli-table3';
import type { ComparisonRow, RunComparison } from './compareRuns.ts';
import { regressions } from './gate.ts';
import { TOTAL } from './episodeSample.ts';
import { formatInterval, formatScore, formatSigned } from './format.ts';

const HEADER = ['agent', 'game', 'episodes', 'baseline', 'candidate', 'difference', '95% CI', 'verdict'];
const NUMERIC = [false, false, true, true, true, true, true, false];

export interface ComparisonView {
  /** Show every game's row, not only each agent's total; the gate then counts games too. */
  readonly perGame?: boolean;
}

function cells(row: ComparisonRow): string[] {
  return [
    row.agent,
    row.game,
    `${row.baseline.episodes} / ${row.candidate.episodes}`,
    formatScore(row.baseline.mean),
    formatScore(row.candidate.mean),
    formatSigned(row.difference.value),
    formatInterval(row.difference.interval, true),
    row.pairing === 'paired' ? row.verdict : `${row.verdict} (${row.pairing})`,
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
    if (unpaired.length === games.length && reasons.size === 1) notes.push(`${agent}: compared unpaired on every game: ${unpaired[0].note}`);
    else for (const row of unpaired) notes.push(`${agent} ${row.game}: compared unpaired: ${row.note}`);
  }
  return notes;
}

const belowWhat = (threshold: number) => (threshold === 0 ? 'below zero' : `below −${threshold} points`);

/** Sentences under the table: unpaired rows, what was left out, and the gate's reading. */
export function comparisonNotes(comparison: RunComparison, view: ComparisonView = {}): string[] {
  const notes = [...unpairedNotes(comparison), ...comparison.notes];
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
  const table = new Table({ head: HEADER, colAligns: NUMERIC.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of shownRows(comparison, view)) table.push(cells(row));
  const title = `baseline ${comparison.baseline} → candidate ${comparison.candidate}`;
  return [title, table.toString(), ...comparisonNotes(comparison, view).map((note) => `- ${note}`)].join('\n');
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

export function renderComparisonMarkdown(comparison: RunComparison, view: ComparisonView = {}): string {
  const lines = [
    `Baseline \`${escapeCell(comparison.baseline)}\` → candidate \`${escapeCell(comparison.candidate)}\`; scores are mean episode scores, differences candidate − baseline.`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `| ${NUMERIC.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
  ];
  for (const row of shownRows(comparison, view)) {
    const c = cells(row).map(escapeCell);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  lines.push('', ...comparisonNotes(comparison, view).map((note) => `- ${escapeCell(note)}`));
  return lines.join('\n') + '\n';
}
