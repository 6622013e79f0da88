/**
 * `arcbench export --format results|csv`: the results table for other tools. JSON carries the rows as
 * run.json keeps them with the notes every table has under it; CSV has no place for notes, so each row
 * carries what they say of it: what its interval resamples and how many draws its card score is the
 * best of. Both come from the same rows the run printed (or, for a run without them, the same code).
 */
import { TOTAL } from '../../analysis/episodeSample.ts';
import { CLUSTERING_WORDS } from '../../analysis/gameClustered.ts';
import type { RunFolder } from '../../runfolder/readRunFolder.ts';
import type { TableRow } from '../../runfolder/runReport.ts';
import { plannedRunOf } from '../results/plannedRun.ts';
import { serviceCardsOf, tableRows } from '../results/resultsTable.ts';
import { tableNotes } from '../results/tableNotes.ts';

export const RESULTS_FORMAT = 'arcbench.results/1';

/** run.json's table, or the same rows computed for a run that has none yet. */
export function resultsOf(folder: RunFolder): TableRow[] {
  const labels = folder.report.agents.map((a) => a.label);
  return folder.report.table ?? tableRows(labels, folder.episodes, serviceCardsOf(folder.report), plannedRunOf(folder.report));
}

export function resultsDocument(folder: RunFolder): Record<string, unknown> {
  const rows = resultsOf(folder);
  return { format: RESULTS_FORMAT, run: folder.report.name, status: folder.report.status, rows, notes: tableNotes(rows) };
}

const INTERVAL_WORDS: Record<string, string> = {
  'episode-bootstrap': 'bootstrap over the episodes of the game',
  'cluster-bootstrap': CLUSTERING_WORDS['cluster-bootstrap'],
};

const COLUMNS: ReadonlyArray<readonly [string, (row: TableRow) => string | number | null | undefined]> = [
  ['agent', (r) => r.agent],
  ['game', (r) => r.game],
  ['episodes', (r) => r.episodes],
  ['planned_episodes', (r) => r.planned_episodes],
  ['missing_episodes', (r) => r.missing_episodes?.join('; ')],
  ['card_score', (r) => r.card_score],
  ['card_score_is_best_of', (r) => (r.game === TOTAL ? null : r.episodes)],
  ['service_score', (r) => r.service_score],
  ['mean_score', (r) => r.mean_score],
  ['ci95_low', (r) => r.interval?.low],
  ['ci95_high', (r) => r.interval?.high],
  ['ci95_method', (r) => (r.interval_method === undefined ? undefined : INTERVAL_WORDS[r.interval_method])],
  ['repeats', (r) => r.repeat_spread?.repeats],
  ['repeat_mean', (r) => r.repeat_spread?.mean],
  ['repeat_sd', (r) => r.repeat_spread?.sd],
  ['repeat_min', (r) => r.repeat_spread?.min],
  ['repeat_max', (r) => r.repeat_spread?.max],
  ['levels_completed', (r) => r.levels_completed],
  ['level_count', (r) => r.level_count],
  ['level_solves', (r) => r.level_solves?.join(' ')],
  ['level_actions', (r) => r.level_actions?.map((a) => a ?? '').join(' ')],
  ['level_seconds', (r) => r.level_seconds?.map((s) => s ?? '').join(' ')],
  ['actions', (r) => r.actions],
  ['human_baseline_share', (r) => r.baseline_share],
  ['wins', (r) => r.wins],
  ['errors', (r) => r.errors],
  ['cost_usd', (r) => r.usage.cost_usd],
  ['cost_per_level_usd', (r) => r.cost_per_level],
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; unknown is empty. */
function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function resultsCsv(folder: RunFolder): string {
  const lines = [COLUMNS.map(([name]) => name).join(','), ...resultsOf(folder).map((row) => COLUMNS.map(([, value]) => csvField(value(row))).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
