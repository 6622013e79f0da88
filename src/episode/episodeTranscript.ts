/**
 * The transcript side of an episode: each call an agent keeps (`keepTranscript`) is checked, tagged
 * with the step it was made in, redacted, and appended to the episode's transcript file, which opens on
 * the first call (an agent that calls no model leaves none) and is complete on disk before the
 * episode's record is handed on.
 */
import { basename, join } from 'node:path';
import type { ModelCallTranscript } from '../agent/transcript.ts';
import { callRecord } from '../agent/usage.ts';
import type { GameDescriptor } from '../protocol/index.ts';
import { recordingFileName } from '../recording/recordingWriter.ts';
import type { Redactor } from '../redaction.ts';
import { transcriptPath } from '../runfolder/layout.ts';
import { existsSync, rmSync } from 'node:fs';
import { readTranscript, transcriptFileName, TranscriptWriter } from '../runfolder/transcriptFile.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';

/** Where an episode's transcripts go: the run's transcripts/ folder, and the run's secrets. */
export interface EpisodeTranscripts {
  readonly dir: string;
  readonly redactor: Redactor;
}

export interface EpisodeTranscript {
  readonly writer: TranscriptWriter;
}

/** The parts of a playing episode a transcript needs. */
interface TranscribedEpisode {
  readonly done: boolean;
  readonly step: number;
  readonly env: { readonly transcripts?: EpisodeTranscripts | undefined };
  readonly spec: { readonly game: GameDescriptor; readonly agent: { readonly label: string }; readonly index: number };
  readonly record: EpisodeRecord;
  transcript: EpisodeTranscript | undefined;
}

export function keepTranscript(episode: TranscribedEpisode, call: ModelCallTranscript): void {
  const where = episode.env.transcripts;
  if (where === undefined || episode.done) return;
  if (call === null || typeof call !== 'object' || call.request === null || typeof call.request !== 'object') {
    throw new TypeError('keepTranscript: expected { request: { messages, tools, params }, response: { content, tool_calls }, usage }');
  }
  const usage = callRecord(call.usage, episode.step);
  const request = where.redactor.value(call.request) as ModelCallTranscript['request'];
  const response = where.redactor.value(call.response ?? {}) as Record<string, unknown>;
  episode.transcript ??= { writer: new TranscriptWriter(join(where.dir, fileNameOf(episode))) };
  episode.record.transcript ??= transcriptPath(fileNameOf(episode));
  episode.transcript.writer.write({
    step: episode.step,
    at: new Date().toISOString(),
    kind: usage.kind,
    model: usage.model,
    messages: [...(request.messages ?? request.input ?? [])],
    instructions: request.instructions ?? null,
    tools: request.tools === undefined ? null : [...request.tools],
    params: { ...(request.params ?? {}) },
    response,
    usage,
  });
}

/**
 * A continued episode's transcript: every call the killed attempt wrote is written back into the same
 * file, and the episode's next calls follow them. The calls of the step it continues from, which the
 * restored agent makes again, stay too: they were billed, and its usage counts them (callJournal.ts).
 */
export async function continueTranscript(episode: TranscribedEpisode): Promise<void> {
  const where = episode.env.transcripts;
  const path = where === undefined ? undefined : join(where.dir, fileNameOf(episode));
  if (path === undefined || !existsSync(path)) return;
  const kept = await readTranscript(path);
  rmSync(path, { force: true });
  if (kept.length === 0) return;
  episode.transcript = { writer: new TranscriptWriter(path) };
  episode.record.transcript = transcriptPath(fileNameOf(episode));
  for (const { call: _call, ...call } of kept) episode.transcript.writer.write(call);
}

/** Named as the episode's recording (even when recordings are off). */
function fileNameOf(episode: TranscribedEpisode): string {
  const recording = episode.record.recording;
  if (recording !== null) return transcriptFileName(basename(recording));
  return transcriptFileName(recordingFileName(episode.spec.game.game_id, episode.spec.agent.label, episode.spec.index, episode.record.guid ?? '', 'gzip'));
}

/** A transcript that cannot be written is said in the record; the episode's play stands. */
export async function closeTranscript(episode: TranscribedEpisode): Promise<void> {
  try {
    await episode.transcript?.writer.close();
  } catch (error) {
    episode.record.stop_details = { ...(episode.record.stop_details as object), transcript_error: (error as Error).message };
  }
}
