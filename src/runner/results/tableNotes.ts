/**
 * The lines under every results table (terminal, table.md, report.html, the results export): what the
 * interval resamples, that the card score is a best draw, the spread across repeats, which planned
 * episodes have no result, and why a score is unknown. Said from the rows alone, so a table read back
 * from run.json says the same as the one the run printed.
 */
import { TOTAL } from '../../analysis/episodeSample.ts';
import { formatScore } from '../../analysis/format.ts';
import { CLUSTERING_WORDS } from '../../analysis/gameClustered.ts';
import { UNKNOWN_SCORES_REASON } from '../../analysis/localScoring.ts';
import { withoutResultSentence } from '../../analysis/planDenominators.ts';
import type { TableRow } from '../../runfolder/runReport.ts';

/** The spread column shows when some row has more than one repeat. */
export const showsSpread = (rows: readonly TableRow[]) => rows.some((row) => (row.repeat_spread?.repeats ?? 0) > 1);

/** `25.80 ± 3.90 (19.10–31.20)`; `unknown` when the row's mean is; `–` for a run of an older version. */
export function shownSpread(row: TableRow): string {
  const spread = row.repeat_spread;
  if (spread === undefined) return '–';
  if (spread === null) return 'unknown';
  if (spread.sd === null) return `${formatScore(spread.mean)} (1 repeat)`;
  return `${formatScore(spread.mean)} ± ${formatScore(spread.sd)} (${formatScore(spread.min)}–${formatScore(spread.max)})`;
}

/** What the intervals resample, said under every table. */
export function intervalNote(rows: readonly TableRow[]): string {
  const totals = rows.filter((row) => row.game === TOTAL);
  if (totals.every((row) => row.interval_method === undefined))
    return '95% CI: bootstrap over the episodes of each game (a run of a version before intervals were clustered by game)';
  const oneGame = totals.filter((row) => row.interval_method === 'episode-bootstrap').map((row) => row.agent);
  const single = oneGame.length === 0 ? '' : `; a total of one game (${oneGame.join(', ')}) resamples its episodes and says nothing of other games`;
  return `95% CI: a game's resamples its episodes; a total's is ${CLUSTERING_WORDS['cluster-bootstrap']}, each game one draw${single}`;
}

/** That the card score is the best of several draws, and what to rank on instead; undefined when every game had one episode. */
export function bestOfNote(rows: readonly TableRow[]): string | undefined {
  const draws = [...new Set(rows.filter((row) => row.game !== TOTAL && row.episodes > 1).map((row) => row.episodes))];
  if (draws.length === 0) return undefined;
  const n = draws.length === 1 ? `${draws[0]} episodes` : 'its episodes';
  const which = rows.some((row) => row.service_score != null) ? 'card score (and service score)' : 'card score';
  return `${which}: per game the best of ${n} (the service's rule), a best draw, not what one draw gives; the mean score beside it is the estimate, and nothing is ranked on the card score`;
}

/** The spread across repeats, or that one repeat cannot show it; undefined for a run of an older version. */
export function spreadNote(rows: readonly TableRow[]): string | undefined {
  if (showsSpread(rows)) {
    const repeats = Math.max(...rows.map((row) => row.repeat_spread?.repeats ?? 0));
    return `repeats: each repeat's score (the mean over its games), then their mean ± SD (min–max) over ${repeats} repeats: how far one run can land from another`;
  }
  if (!rows.some((row) => row.repeat_spread != null)) return undefined;
  return 'one repeat: identical runs of one agent can differ by more than a change being measured, which one run cannot show; `repeats: 3` in the config shows the spread';
}

/** Per agent, the planned episodes without a result, named. */
export function missingNotes(rows: readonly TableRow[]): string[] {
  return rows
    .filter((row) => row.game === TOTAL && (row.missing_episodes?.length ?? 0) > 0)
    .map((row) => `${row.agent}: ${withoutResultSentence(row.missing_episodes!, row.planned_episodes ?? row.missing_episodes!.length)}`);
}

export function tableNotes(rows: readonly TableRow[]): string[] {
  const unknown = rows.some((row) => row.card_score === null || row.mean_score === null) && rows.some((row) => row.baselines_known === false);
  return [intervalNote(rows), bestOfNote(rows), spreadNote(rows), ...missingNotes(rows), unknown ? UNKNOWN_SCORES_REASON : undefined].filter(
    (line): line is string => line !== undefined,
  );
}
