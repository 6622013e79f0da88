/**
 * A run folder as it is on disk right now, for the report and `view`: the runner's reading of it
 * (run.json checked against its schema, the current episodes of episodes.jsonl, a line being written
 * left out) plus the names of its recordings. A folder that has episodes but no run.json (a run of an
 * older version killed early) reads too, as `running`, with what is there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { isRecordingFileName } from '../recording/recordingReader.ts';
import { currentEpisodes, parseEpisodeLines, readRunFolder } from '../runfolder/readRunFolder.ts';
import { RunFolderError, type RunReport } from '../runfolder/runReport.ts';
import { EPISODES_FILE, RECORDINGS_FOLDER, RUN_FILE } from '../runfolder/fileNames.ts';

export { RunFolderError };

/** A run folder as read from disk at one moment (what the report and `view` show). */
export interface RunFolderSnapshot {
  dir: string;
  /** run.json; null for a folder without one. */
  run: RunReport | null;
  /** The current record of each finished episode (not those a resume played again). */
  episodes: readonly EpisodeRecord[];
  /** Old records a later attempt played again (cut short by the run's stop, or failed and retried). */
  superseded: readonly EpisodeRecord[];
  /** File names under recordings/, sorted. */
  recordingFiles: string[];
}

/** A folder `arcbench run` wrote (or is writing): it has run.json or episodes.jsonl. */
export function isRunFolder(dir: string): boolean {
  return existsSync(join(dir, RUN_FILE)) || existsSync(join(dir, EPISODES_FILE));
}

export function readRunFolderSnapshot(dirArgument: string): RunFolderSnapshot {
  const dir = resolve(dirArgument);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new RunFolderError(`${dirArgument}: no such folder; give a run folder written by arcbench run (e.g. results/<timestamp>-<name>)`);
  }
  if (!isRunFolder(dir)) {
    throw new RunFolderError(
      `${dirArgument} is not a run folder: it has neither ${RUN_FILE} nor ${EPISODES_FILE}; give a folder written by arcbench run (e.g. results/<timestamp>-<name>)`,
    );
  }
  const recordingFiles = listRecordings(dir);
  if (existsSync(join(dir, RUN_FILE))) {
    const folder = readRunFolder(dir);
    return { dir, run: folder.report, episodes: folder.episodes, superseded: supersededOf(folder.records), recordingFiles };
  }
  const path = join(dir, EPISODES_FILE);
  const records = parseEpisodeLines(readFileSync(path, 'utf8'), path).records;
  return { dir, run: null, episodes: currentEpisodes(records), superseded: supersededOf(records), recordingFiles };
}

function supersededOf(records: readonly EpisodeRecord[]): EpisodeRecord[] {
  return records.filter((record) => record.superseded !== undefined);
}

function listRecordings(dir: string): string[] {
  const folder = join(dir, RECORDINGS_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter(isRecordingFileName).sort();
}

/** The run's name: run.json's, or the folder's when there is no run.json. */
export function runName(folder: RunFolderSnapshot): string {
  return folder.run?.name ?? basename(folder.dir);
}

/** run.json's status; without run.json the run is taken as still going (or killed before writing it). */
export function folderStatus(folder: RunFolderSnapshot): string {
  return folder.run?.status ?? 'running';
}
