/**
 * A run folder digested into what the page shows: the run's header, agents, games, results table and
 * episodes (finished ones from episodes.jsonl, and recordings of episodes still being played).
 */
import { isAbsolute, relative } from 'node:path';
import { gameCatalog } from '../games/catalog.ts';
import { DEFAULT_FPS } from '../protocol/index.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { recordingNameParts } from '../recording/recordingWriter.ts';
import {
  type AgentSummary,
  type EpisodeRow,
  type GameSummary,
  IN_PROGRESS,
  PLAYED_AGAIN,
  type RecordingSource,
  REPORT_FORMAT,
  type ReportData,
  type ReportFactorial,
  type ResultRow,
  type RunHeader,
  UNFINISHED,
} from './pageData.ts';
import { resultTable, scoreOf } from './resultRows.ts';
import { levelSolveCurve } from '../analysis/levelProgress.ts';
import { episodeLevelCount, knewBaselines, UNKNOWN_SCORES_REASON } from '../analysis/localScoring.ts';
import { usageFigures } from './usageFigures.ts';
import { factorialSummary } from '../analysis/factorialSummary.ts';
import { runEpisodesOf } from '../analysis/runEpisodes.ts';
import { folderStatus, recordingsWithoutRecord, type RunFolderSnapshot, runName } from '../runfolder/folderSnapshot.ts';

export function buildReportData(folder: RunFolderSnapshot, recordings: RecordingSource, now = new Date()): ReportData {
  const agents = agentSummaries(folder);
  const results = resultTable(
    folder,
    agents.map((a) => a.label),
  );
  return {
    format: REPORT_FORMAT,
    generated_at: now.toISOString(),
    run: runHeader(folder),
    agents,
    games: gameSummaries(folder, results.rows),
    results: results.rows,
    unknown_scores: folder.run?.unknown_scores ?? (folder.episodes.some((e) => !knewBaselines(e)) ? UNKNOWN_SCORES_REASON : null),
    result_notes: results.notes,
    solve_curves: agents.map((a) => ({ agent: a.label, ...levelSolveCurve(folder.episodes.filter((e) => e.agent === a.label)) })),
    episodes: [...folder.episodes.map(episodeRow), ...folder.superseded.map(playedAgainRow), ...inProgressRows(folder)],
    recordings,
    harness_card: folder.run?.harness_card ?? null,
    factorial: factorialOf(folder),
  };
}

/**
 * Recomputed from the episodes (not read from run.json, which has it only once a run ends): a live
 * page shows the effects so far. The arms are run.json's; a folder without it has none.
 */
function factorialOf(folder: RunFolderSnapshot): ReportFactorial | null {
  const agents = folder.run?.agents ?? [];
  return factorialSummary(
    agents,
    runEpisodesOf(
      folder.dir,
      agents.map((a) => a.label),
      folder.episodes,
    ).episodes,
  );
}

function runHeader(folder: RunFolderSnapshot): RunHeader {
  const run = folder.run;
  const local = localPaths(run?.provenance.experiment_git.folder);
  return {
    name: runName(folder),
    status: folderStatus(folder),
    started_at: run?.started_at ?? folder.episodes[0]?.started_at ?? null,
    finished_at: run?.finished_at ?? null,
    config_file: run?.config_file == null ? null : local(run.config_file),
    target: run?.provenance.target ?? null,
    folder: local(folder.dir),
    provenance:
      run == null ? null : { ...run.provenance, experiment_git: { ...run.provenance.experiment_git, folder: '.' }, argv: run.provenance.argv.map(local) },
    config: run?.config ?? null,
    totals: run?.totals ?? null,
  };
}

/**
 * Paths as the page shows them: relative to the experiment's folder, where the user ran from. A report is
 * shared (attached to an issue, uploaded by CI), and `/home/alice/…` or a runner's work folder is
 * nobody else's business nor any use to them. Without the folder (no run.json), paths stay as they are.
 */
function localPaths(experimentFolder: string | undefined): (path: string) => string {
  if (experimentFolder === undefined) return (path) => path;
  return (path) => (isAbsolute(path) ? relative(experimentFolder, path) || '.' : path);
}

/** Agents in run.json's order, then any seen only in episodes (a run without run.json yet). */
function agentSummaries(folder: RunFolderSnapshot): AgentSummary[] {
  const summaries: AgentSummary[] = (folder.run?.agents ?? []).map((agent) => ({
    label: agent.label,
    use: agent.use,
    card_id: agent.card_id,
    service_score: agent.scorecard?.score ?? null,
    local_score: agent.local_score.score,
    close_error: agent.close_error,
    score_differences: agent.score_differences ?? [],
  }));
  const known = new Set(summaries.map((a) => a.label));
  for (const episode of folder.episodes) {
    if (known.has(episode.agent)) continue;
    known.add(episode.agent);
    summaries.push({
      label: episode.agent,
      use: null,
      card_id: episode.card_id,
      service_score: null,
      local_score: null,
      close_error: null,
      score_differences: [],
    });
  }
  return summaries;
}

/**
 * run.json's games, then games seen only in episodes (a run without run.json yet). Each as its own data
 * says: the title and frame rate its descriptor gave (an official game of a games_dir, a remote service's
 * game), else the built-in catalog's; its levels as the results table counts them (the card's count, which
 * for a game with fewer baselines than levels, as the toolkit's bt33, is not its frames'), else as its frames do.
 */
function gameSummaries(folder: RunFolderSnapshot, rows: readonly ResultRow[]): GameSummary[] {
  const ids = [...new Set([...(folder.run?.games ?? []), ...folder.episodes.map((e) => e.game_id)])];
  return ids.map((id) => {
    const episodes = folder.episodes.filter((e) => e.game_id === id);
    const described = episodes.find((e) => e.game_title !== undefined || e.game_fps !== undefined);
    const known = catalogInfo(id);
    return {
      game_id: id,
      title: described?.game_title ?? known?.title ?? null,
      default_fps: described?.game_fps ?? known?.defaultFps ?? DEFAULT_FPS,
      levels: Math.max(0, ...rows.filter((row) => row.game === id).map((row) => row.level_count ?? 0)) || Math.max(0, ...episodes.map((e) => e.win_levels)),
    };
  });
}

/** A game of the built-in catalog, for records that do not say (written by older versions). */
function catalogInfo(gameId: string): { title: string; defaultFps: number } | undefined {
  return gameCatalog().find((game) => game.info.id === gameId)?.info;
}

function episodeRow(episode: EpisodeRecord): EpisodeRow {
  return {
    agent: episode.agent,
    game_id: episode.game_id,
    episode: episode.episode,
    outcome: episode.outcome,
    score: scoreOf(episode),
    levels_completed: episode.levels_completed,
    level_count: episodeLevelCount(episode),
    win_levels: episode.win_levels,
    actions: episode.actions,
    resets: episode.resets,
    wall_seconds: episode.wall_seconds,
    error: episode.error?.message ?? null,
    recording: episode.recording,
    attempt: episode.attempt,
    usage: usageFigures(episode.usage),
    transcript: episode.transcript ?? null,
  };
}

/** A record a later attempt played again: shown as such, with no score of its own (the new record has it). */
function playedAgainRow(episode: EpisodeRecord): EpisodeRow {
  return { ...episodeRow(episode), outcome: PLAYED_AGAIN, score: null, error: episode.superseded?.reason ?? null };
}

/**
 * Recordings on disk that no record names: episodes being played right now, or, once the run has
 * ended, episodes it never finished (their process was killed).
 */
function inProgressRows(folder: RunFolderSnapshot): EpisodeRow[] {
  const outcome = folderStatus(folder) === 'running' ? IN_PROGRESS : UNFINISHED;
  const rows: EpisodeRow[] = [];
  for (const { file, path } of recordingsWithoutRecord(folder)) {
    const parts = recordingNameParts(file);
    if (parts === undefined) continue;
    rows.push({
      ...parts,
      outcome,
      attempt: null,
      score: null,
      levels_completed: 0,
      level_count: 0,
      win_levels: 0,
      actions: 0,
      resets: 0,
      wall_seconds: null,
      error: null,
      recording: path,
    });
  }
  return rows;
}
