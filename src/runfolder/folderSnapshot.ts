/**
 * A run folder as it is on disk right now, for the report and `view`: the runner's reading of it
 * (run.json checked against its schema, the current episodes of episodes.jsonl, a line being written
 * left out) plus the names of its recordings. A folder that has episodes but no run.json (a run of an
 * older version killed early) reads too, as `running`, with what is there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { EpisodeRecord } from './episodeRecord.ts';
import { isRecordingFileName, readRecordingText } from '../recording/recordingReader.ts';
import { readTranscriptText } from './transcriptFile.ts';
import { currentEpisodes, parseEpisodeLines, readRunFolder } from './readRunFolder.ts';
import { RunFolderError, type RunReport } from './runReport.ts';
import { EPISODES_FILE, RECORDINGS_FOLDER, RUN_FILE, recordingPath, TRANSCRIPTS_FOLDER } from './fileNames.ts';

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

/** Recordings on disk (file name, path in the folder as records give it) that no record names: episodes playing right now, or (the run over) never finished. */
export function recordingsWithoutRecord(folder: RunFolderSnapshot): Array<{ file: string; path: string }> {
  const named = new Set([...folder.episodes, ...folder.superseded].map((e) => e.recording));
  return folder.recordingFiles.map((file) => ({ file, path: recordingPath(file) })).filter(({ path }) => !named.has(path));
}

/**
 * A recording or a transcript of the folder, by its path inside it (`recordings/<name>`,
 * `transcripts/<name>`), as text; undefined for any other path: only files the folder lists or its
 * records name are served, so a path can never leave the folder.
 */
export async function readEpisodeFileText(folder: RunFolderSnapshot, segments: readonly string[]): Promise<string | undefined> {
  const [kind, name] = segments;
  if (segments.length !== 2 || name === undefined) return undefined;
  if (kind === RECORDINGS_FOLDER && folder.recordingFiles.includes(name)) return readRecordingText(join(folder.dir, RECORDINGS_FOLDER, name));
  const transcript = `${TRANSCRIPTS_FOLDER}/${name}`;
  if (kind === TRANSCRIPTS_FOLDER && folder.episodes.some((episode) => episode.transcript === transcript))
    return readTranscriptText(join(folder.dir, transcript));
  return undefined;
}

/** Changes whenever the folder's run.json, episodes.jsonl or recordings change: when to read it again. */
export function folderStamp(dir: string): string {
  return [RUN_FILE, EPISODES_FILE, RECORDINGS_FOLDER].map((name) => fileStamp(join(dir, name))).join('|');
}

function fileStamp(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return '-';
  }
}
