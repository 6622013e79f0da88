/**
 * One session's recording (docs/protocol.md §9): JSON lines `{"timestamp", "data": <frame response>}`, first line
 * the RESET answer, `action_input` as sent; gzip-compressed (`.recording.jsonl.gz`, the default: the
 * same lines inside, a fortieth of the size) or plain (`.recording.jsonl`).
 *
 * The file is made, and its lines encoded and written, on the recording thread (recordingThread.ts,
 * recordingFiles.ts): this is the episode's handle on it. What the pipeline buys (the measured figures)
 * and how to fall back to node:zlib: README.md in this folder.
 */
import { join } from 'node:path';
import type { ActionInput, FrameResponse } from '../protocol/index.ts';
import { ArcbenchError, RunFolderWriteError } from '../errors.ts';
import { isGameId, isUuid, shownId } from '../protocol/index.ts';
import type { RecordingFormat } from './recordingFiles.ts';
import { COMPRESSED_RECORDING_SUFFIX, RECORDING_SUFFIX } from './recordingReader.ts';
import { lineHead, lineTail, lineTimestamp } from './recordingLine.ts';
import { type RecordingThread, recordingThread } from './recordingThread.ts';

export type { RecordingFormat } from './recordingFiles.ts';

/**
 * A label as the config allows it (letters, digits, `.`, `-`, `_`), or a factorial arm's name
 * (`llm[model=a,effort=low]`: also `[`, `]`, `=`, `,`); no `/`, so it cannot leave the folder.
 */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.=,[\]-]{0,63}$/;

/**
 * `<game>.<agent>.<n>.<guid>.recording.jsonl[.gz]`, the name existing tools look for. Built only from
 * values checked here: the ids come from the service, and a `../../x` must not name a file outside the run.
 */
export function recordingFileName(gameId: string, agentLabel: string, episode: number, guid: string, format: RecordingFormat = 'gzip'): string {
  if (!isGameId(gameId)) throw unsafeName('game id', gameId);
  if (!isUuid(guid)) throw unsafeName('session guid', guid);
  if (!LABEL.test(agentLabel)) throw unsafeName('agent label', agentLabel);
  if (!Number.isInteger(episode) || episode < 0) throw unsafeName('episode index', episode);
  return `${gameId}.${agentLabel}.${episode}.${guid}${format === 'gzip' ? COMPRESSED_RECORDING_SUFFIX : RECORDING_SUFFIX}`;
}

function unsafeName(what: string, value: unknown): ArcbenchError {
  return new ArcbenchError('RECORDING_NAME_UNSAFE', `the ${what} ${shownId(value)} cannot name a recording file; no recording was written for this session`);
}

export class RecordingWriter {
  readonly path: string;
  readonly #thread: RecordingThread;
  readonly #id: number;
  #closed = false;
  /** The last line's head, kept while its timestamp and ids stay the same (most lines of a fast run). */
  #head = { timestamp: '', gameId: '', guid: '', text: '' };

  constructor(directory: string, fileName: string, format: RecordingFormat = 'gzip') {
    this.path = join(directory, fileName);
    this.#thread = recordingThread();
    this.#id = this.#thread.open(this.path, format);
  }

  /** Resolves once the file exists and holds every line written so far (for readers that follow it). */
  whenOpen(): Promise<void> {
    return this.#thread.sync(this.#id);
  }

  /**
   * Queues the line; throws once the recording has failed. Returns a promise when the recording
   * thread is behind: the caller waits on it before playing on, which keeps memory flat.
   */
  write(response: FrameResponse, sent: ActionInput, at: Date | number = Date.now()): Promise<void> | undefined {
    if (this.#closed) throw new Error(`recording ${this.path} is already closed`);
    const failure = this.#thread.failure(this.#id);
    if (failure !== undefined) throw new RunFolderWriteError(failure);
    return this.#thread.line(this.#id, this.#headOf(response, lineTimestamp(at)), response.frame, lineTail(response, sent));
  }

  #headOf(response: FrameResponse, timestamp: string): string {
    const head = this.#head;
    if (head.timestamp !== timestamp || head.gameId !== response.game_id || head.guid !== response.guid) {
      this.#head = { timestamp, gameId: response.game_id, guid: response.guid, text: lineHead(response, timestamp) };
    }
    return this.#head.text;
  }

  /** Resolves once every line is in the file and it is closed; rejects when it could not be written. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#thread.close(this.#id);
    } catch (error) {
      throw new RunFolderWriteError((error as Error).message, { cause: error });
    }
  }
}

/**
 * `<game>.<agent>.<n>.<guid>.recording.jsonl[.gz]` taken apart. Game ids and guids hold no dot, agent
 * labels may, so the label is everything between the first part and the last two.
 */
export function recordingNameParts(file: string): { game_id: string; agent: string; episode: number } | undefined {
  const stem = file.endsWith(COMPRESSED_RECORDING_SUFFIX) ? file.slice(0, -COMPRESSED_RECORDING_SUFFIX.length) : file.slice(0, -RECORDING_SUFFIX.length);
  const parts = stem.split('.');
  if (parts.length < 4) return undefined;
  const episode = Number(parts[parts.length - 2]);
  if (!Number.isInteger(episode)) return undefined;
  return { game_id: parts[0]!, agent: parts.slice(1, -2).join('.'), episode };
}
