/**
 * An episode's own files, as its record names them (paths relative to the run folder): its recording
 * and its transcript of model calls. The readers of a folder (verify, export, the report) reach them
 * here, never by joining the names themselves.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isRecordingFileName, type RecordingEntry, readRecording } from '../recording/recordingReader.ts';
import { recordingNameParts } from '../recording/recordingWriter.ts';
import { episodeKey, keyOfRecord } from './episodeKey.ts';
import { RECORDINGS_FOLDER } from './fileNames.ts';
import type { EpisodeRecord } from './episodeRecord.ts';
import { readTranscript, type TranscriptCall } from './transcriptFile.ts';

/** The episode's recording entry by entry; `none` when its record names none, `missing` when the file is gone. */
export function episodeRecording(dir: string, episode: Pick<EpisodeRecord, 'recording'>): AsyncIterable<RecordingEntry> | 'none' | 'missing' {
  if (episode.recording === null) return 'none';
  const path = join(dir, episode.recording);
  return existsSync(path) ? readRecording(path) : 'missing';
}

/** The model calls the episode kept, in order; undefined when it kept none (or its file is gone). */
export async function episodeTranscript(dir: string, episode: Pick<EpisodeRecord, 'transcript'>): Promise<TranscriptCall[] | undefined> {
  if (episode.transcript === undefined || episode.transcript === null) return undefined;
  const path = join(dir, episode.transcript);
  return existsSync(path) ? readTranscript(path) : undefined;
}

/**
 * The keys of episodes that began (their recording is in the folder) and have no record: those in
 * flight when an earlier attempt's process died. Without recordings nothing tells them apart.
 */
export function episodesInFlight(dir: string, records: readonly Pick<EpisodeRecord, 'agent' | 'game_id' | 'episode'>[]): Set<string> {
  const folder = join(dir, RECORDINGS_FOLDER);
  if (!existsSync(folder)) return new Set();
  const finished = new Set(records.map(keyOfRecord));
  const begun = readdirSync(folder)
    .filter(isRecordingFileName)
    .map(recordingNameParts)
    .filter((parts) => parts !== undefined)
    .map((parts) => episodeKey(parts.agent, parts.game_id, parts.episode));
  return new Set(begun.filter((key) => !finished.has(key)));
}
