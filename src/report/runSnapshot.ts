/**
 * A run folder as it is on disk right now, for the report and `view`: run.json (checked against its
 * schema), episodes.jsonl (one line per finished episode, appended as they finish) and the names of its
 * recordings. Unlike the runner's readRunSnapshot (results/runFolder.ts, for comparing finished runs), a
 * run still going, or killed, reads too: without run.json it is `running`, with what is there, and a
 * last episode line being written as it is read is left out.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { EpisodeRecord } from '../runner/episode/episodeRecord.ts';
import { isRecordingFileName } from '../runner/results/recordingReader.ts';
import { readRunReport, RunFolderError, type RunReport } from '../runner/results/runReport.ts';

export { RunFolderError };

export const RUN_FILE = 'run.json';
export const EPISODES_FILE = 'episodes.jsonl';
export const RECORDINGS_FOLDER = 'recordings';

export interface RunSnapshot {
  dir: string;
  /** run.json, checked against its schema; null while the run has not written it. */
  run: RunReport | null;
  episodes: EpisodeRecord[];
  /** File names under recordings/, sorted. */
  recordingFiles: string[];
}

/** A folder `arcbench run` wrote (or is writing): it has run.json or episodes.jsonl. */
export function isRunFolder(dir: string): boolean {
  return existsSync(join(dir, RUN_FILE)) || existsSync(join(dir, EPISODES_FILE));
}

export function readRunSnapshot(dirArgument: string): RunSnapshot {
  const dir = resolve(dirArgument);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new RunFolderError(`${dirArgument}: no such folder; give a run folder written by arcbench run (e.g. results/<timestamp>-<name>)`);
  }
  if (!isRunFolder(dir)) {
    throw new RunFolderError(
      `${dirArgument} is not a run folder: it has neither ${RUN_FILE} nor ${EPISODES_FILE}; give a folder written by arcbench run (e.g. results/<timestamp>-<name>)`,
    );
  }
  return {
    dir,
    run: existsSync(join(dir, RUN_FILE)) ? readRunReport(dir) : null,
    episodes: readEpisodes(join(dir, EPISODES_FILE)),
    recordingFiles: listRecordings(dir),
  };
}

/**
 * Every complete line of episodes.jsonl. A run being written may have a last line half-way (the
 * reader raced the writer): it is left out. A bad line anywhere else is an error naming it.
 */
export function readEpisodes(path: string): EpisodeRecord[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const episodes: EpisodeRecord[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      episodes.push(JSON.parse(line) as EpisodeRecord);
    } catch (error) {
      if (index === lines.length - 1) return;
      throw new RunFolderError(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
  });
  return episodes;
}

function listRecordings(dir: string): string[] {
  const folder = join(dir, RECORDINGS_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter(isRecordingFileName).sort();
}

/** The run's name: run.json's, or the folder's when there is no run.json yet. */
export function runName(folder: RunSnapshot): string {
  return folder.run?.name ?? basename(folder.dir);
}

/** run.json's status; without run.json the run is still going (or was killed before writing it). */
export function runStatus(folder: RunSnapshot): string {
  return folder.run?.status ?? 'running';
}
