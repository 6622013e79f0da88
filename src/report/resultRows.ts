/**
 * The report's results table: run.json's table (card score, mean episode score and its 95% interval,
 * levels, actions, wins, errors per agent and game, and per agent in total), or for a run that has not
 * written one yet (still going, or from before run.json kept its table) the same rows computed from
 * the episodes by the runner's own table code.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { ownScore } from '../analysis/localScoring.ts';
import { serviceCardsOf, tableRows } from '../runner/results/resultsTable.ts';
import type { TableRow } from '../runfolder/runReport.ts';
import type { ResultRow } from './pageData.ts';
import { usageFigures } from './usageFigures.ts';
import type { RunFolderSnapshot } from '../runfolder/folderSnapshot.ts';

export function resultRows(snapshot: RunFolderSnapshot, agentLabels: readonly string[]): ResultRow[] {
  const rows =
    snapshot.run?.table ??
    (snapshot.episodes.length === 0 ? [] : tableRows(agentLabels, snapshot.episodes, snapshot.run ? serviceCardsOf(snapshot.run) : undefined));
  return rows.map(resultRow);
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
    usage: usageFigures(row.usage),
  };
}

/** An episode's own score as the runner recorded it, or (a log of an older version) scored here the same way; null when unknown. */
export function scoreOf(episode: EpisodeRecord): number | null {
  return ownScore(episode);
}
