/**
 * An episode's transcript file: gzip-compressed JSON lines, beside its recording under transcripts/.
 * A conversation sends its whole prefix again on every call, so each distinct piece (a message, the
 * tool list) is written once as a `{"piece": hash, "value": …}` line the first time it is met, and a
 * call line names its pieces by hash: an 80-call episode costs about its distinct text, not 80 times
 * its context. A piece always comes before the first call that names it, so a reader streams the file.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { constants as zlibConstants, gunzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { ModelCallRecord } from '../agent/usage.ts';
import { withoutPartialLastLine } from '../recording/recordingReader.ts';

/** The suffix of a transcript file; its name is its recording's with this suffix instead. */
export const TRANSCRIPT_SUFFIX = '.transcript.jsonl.gz';

/** A transcript's file name from its recording's (plain or gzip). */
export function transcriptFileName(recordingFileName: string): string {
  return recordingFileName.replace(/\.recording\.jsonl(\.gz)?$/, '') + TRANSCRIPT_SUFFIX;
}

/** One call as a transcript line holds it, its pieces named by hash. */
export interface TranscriptCallLine {
  /** 0-based order of the call in the episode. */
  call: number;
  /** The step (decision) it was made in: the action it decided is recording line step + 1. */
  step: number;
  at: string;
  kind: 'action' | 'compaction';
  model: string;
  /** The chat messages or input items, in order, by hash. */
  messages: string[];
  instructions: string | null;
  tools: string | null;
  params: Record<string, unknown>;
  response: Record<string, unknown>;
  usage: ModelCallRecord;
}

/** A call read back with its pieces in place. */
export interface TranscriptCall extends Omit<TranscriptCallLine, 'messages' | 'instructions' | 'tools'> {
  messages: unknown[];
  instructions: unknown;
  tools: unknown[] | null;
}

/** The hash a piece is named by: the first 16 hex digits of the SHA-256 of its JSON. */
export function pieceHash(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/**
 * Writes each call as a gzip member of its own (its new pieces, then its line), with one write call
 * before `write` returns: a run killed at any moment after keeps every call it heard of, as its call
 * journal does (callJournal.ts). A stream's buffered and asynchronous writes lost the last call to a
 * kill -9. A file of several members is one gzip file to every reader.
 */
export class TranscriptWriter {
  #fd: number | undefined;
  /** The lines of the call being written: its new pieces, then the call. */
  #pending: string[] = [];
  /**
   * Each distinct piece's JSON and its hash: a repeated message is found by its text (a Map lookup)
   * rather than hashed again; SHA-256 of every message of every call was most of what writing cost.
   */
  readonly #written = new Map<string, string>();
  #calls = 0;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.#fd = openSync(path, 'w');
  }

  /** Appends one call; `messages`, `instructions` and `tools` are stored as pieces. */
  write(call: Omit<TranscriptCall, 'call'>): void {
    const messages = call.messages.map((message) => this.#piece(message));
    const line: TranscriptCallLine = {
      ...call,
      call: this.#calls++,
      messages,
      instructions: call.instructions === undefined || call.instructions === null ? null : this.#piece(call.instructions),
      tools: call.tools === null ? null : this.#piece(call.tools),
    };
    this.#pending.push(`${JSON.stringify(line)}\n`);
    if (this.#fd === undefined) throw new Error('TranscriptWriter: write after close');
    writeSync(this.#fd, gzipSync(this.#pending.join('')));
    this.#pending = [];
  }

  /** Ends the file: every call is on disk already. */
  async close(): Promise<void> {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #piece(value: unknown): string {
    const json = JSON.stringify(value);
    const known = this.#written.get(json);
    if (known !== undefined) return known;
    const hash = pieceHash(json);
    this.#written.set(json, hash);
    this.#pending.push(`{"piece":"${hash}","value":${json}}\n`);
    return hash;
  }
}

const TOLERANT = { finishFlush: zlibConstants.Z_SYNC_FLUSH };
const gunzipTolerant = promisify((input: Buffer, done: (error: Error | null, result: Buffer) => void) => gunzip(input, TOLERANT, done));

/** The transcript's lines as text, a cut-short last line left out. */
export async function readTranscriptText(path: string): Promise<string> {
  return withoutPartialLastLine((await gunzipTolerant(await readFile(path))).toString('utf8'));
}

/**
 * Every call of a transcript, pieces in place. A file a killed run left cut short reads as the calls
 * before the cut; a line that is not a transcript's is an error naming the file and line.
 */
export async function readTranscript(path: string): Promise<TranscriptCall[]> {
  const text = await readTranscriptText(path);
  const pieces = new Map<string, unknown>();
  const calls: TranscriptCall[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = parseLine(raw, `${path}:${index + 1}`);
    if (typeof line.piece === 'string') {
      pieces.set(line.piece, line.value);
      return;
    }
    const call = line as unknown as TranscriptCallLine;
    const piece = (hash: string) => {
      if (!pieces.has(hash)) throw new Error(`${path}:${index + 1}: names piece ${hash}, which no earlier line holds; the transcript is damaged`);
      return pieces.get(hash);
    };
    calls.push({
      ...call,
      messages: call.messages.map(piece),
      instructions: call.instructions === null ? null : piece(call.instructions),
      tools: call.tools === null ? null : (piece(call.tools) as unknown[]),
    });
  });
  return calls;
}

function parseLine(raw: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${where}: not JSON (${(error as Error).message}); a transcript holds one JSON object per line`);
  }
  const line = value as Record<string, unknown> | null;
  if (line === null || typeof line !== 'object' || (typeof line.piece !== 'string' && (typeof line.call !== 'number' || !Array.isArray(line.messages)))) {
    throw new Error(`${where}: neither a piece nor a call; expected a transcript written by arcbench run`);
  }
  return line;
}
