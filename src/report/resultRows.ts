/**
 * The report's results table: run.json's table (card score, mean episode score and its 95% interval,
 * the spread across repeats, levels, actions against the human baseline, wins, errors per agent and
 * game, and per agent in total) with the notes table.md has under it, or for a run that has not
 * written one yet (still going, or from before run.json kept its table) the same rows computed from
 * the episodes by the runner's own table code.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { ownScore, UNKNOWN_SCORES_REASON } from '../analysis/localScoring.ts';
import { serviceCardsOf, tableRows } from '../runner/results/resultsTable.ts';
import { plannedRunOf } from '../runner/results/plannedRun.ts';
import { shownSpread, tableNotes } from '../runner/results/tableNotes.ts';
import { levelCells } from '../runner/results/levelsSection.ts';
import type { TableRow } from '../runfolder/runReport.ts';
import type { ResultRow } from './pageData.ts';
import { usageFigures } from './usageFigures.ts';
import type { RunFolderSnapshot } from '../runfolder/folderSnapshot.ts';

const withoutScores = ({ scores: _scores, ...spread }: NonNullable<TableRow['repeat_spread']>) => spread;

/** The rows as run.json keeps them (or as computed for a run without its table), and the notes under them. */
export function resultTable(snapshot: RunFolderSnapshot, agentLabels: readonly string[]): { rows: ResultRow[]; notes: string[] } {
  const rows = tableOf(snapshot, agentLabels);
  // Why a score is unknown the page says once, under the table, from ReportData.unknown_scores.
  const notes = rows.length === 0 ? [] : tableNotes(rows).filter((note) => note !== UNKNOWN_SCORES_REASON);
  return { rows: rows.map(resultRow), notes };
}

function tableOf(snapshot: RunFolderSnapshot, agentLabels: readonly string[]): readonly TableRow[] {
  return (
    snapshot.run?.table ??
    (snapshot.episodes.length === 0
      ? []
      : tableRows(
          agentLabels,
          snapshot.episodes,
          snapshot.run ? serviceCardsOf(snapshot.run) : undefined,
          snapshot.run ? plannedRunOf(snapshot.run) : undefined,
        ))
  );
}

function resultRow(row: TableRow): ResultRow {
  return {
    agent: row.agent,
    game: row.game,
    episodes: row.episodes,
    score: row.card_score,
    service_score: row.service_score ?? null,
    mean: row.mean_score,
    interval: row.interval,
    levels: `${row.levels_completed}/${row.level_count}`,
    actions: row.actions,
    wins: row.wins,
    errors: row.errors,
    levels_completed: row.levels_completed,
    level_count: row.level_count,
    usage: usageFigures(row.usage),
    ...(row.planned_episodes === undefined ? {} : { planned: row.planned_episodes, missing: row.missing_episodes?.length ?? 0 }),
    ...(row.repeat_spread === undefined ? {} : { spread: row.repeat_spread === null ? null : withoutScores(row.repeat_spread), spread_text: shownSpread(row) }),
    ...(row.baseline_share === undefined ? {} : { baseline_share: row.baseline_share }),
    ...(row.cost_per_level === undefined ? {} : { cost_per_level: row.cost_per_level }),
    ...(row.level_solves === undefined ? {} : { level_solves: row.level_solves, levels_detail: levelCells(row) }),
    ...(row.level_actions === undefined ? {} : { level_actions: row.level_actions }),
    ...(row.level_seconds === undefined ? {} : { level_seconds: row.level_seconds }),
  };
}

/** An episode's own score as the runner recorded it, or (a log of an older version) scored here the same way; null when unknown. */
export function scoreOf(episode: EpisodeRecord): number | null {
  return ownScore(episode);
}
