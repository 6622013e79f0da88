/**
 * Reads recordings (docs/protocol.md §9: JSON lines `{"timestamp", "data": <frame response>}`), plain
 * (`*.recording.jsonl`) or gzip-compressed (`*.recording.jsonl.gz`): the one place every reader of
 * recordings goes through (the replay agent, the report, `arcbench view`). Compression is told by the
 * file's first bytes, not its name, so a renamed file still reads.
 *
 * A run killed mid-episode leaves its open recording cut short: a gzip stream without its end, a last
 * line without its end. Both read as the complete lines before the cut; a bad line anywhere else is an
 * error that names the file and line.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { constants as zlibConstants, createGunzip, gunzip } from 'node:zlib';
import { promisify } from 'node:util';

export const RECORDING_SUFFIX = '.recording.jsonl';
export const COMPRESSED_RECORDING_SUFFIX = '.recording.jsonl.gz';

/** A recording file, plain or compressed, by its name. */
export function isRecordingFileName(name: string): boolean {
  return name.endsWith(RECORDING_SUFFIX) || name.endsWith(COMPRESSED_RECORDING_SUFFIX);
}

/** One line of a recording as read back: grids as nested arrays, as on the wire. */
export interface RecordingEntry {
  timestamp: string;
  data: RecordedFrame;
}

export interface RecordedFrame {
  game_id: string;
  guid: string;
  frame: number[][][];
  state: string;
  levels_completed: number;
  win_levels: number;
  action_input: { id: number; data?: { x?: number; y?: number; [key: string]: unknown }; reasoning?: unknown };
  available_actions: number[];
  full_reset: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];
/** Decoding stops at the cut of a truncated stream instead of failing: the bytes before it are kept. */
const TOLERANT = { finishFlush: zlibConstants.Z_SYNC_FLUSH };
const gunzipTolerant = promisify((input: Buffer, done: (error: Error | null, result: Buffer) => void) => gunzip(input, TOLERANT, done));

export function isGzipped(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

async function startsGzipped(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return isGzipped(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The recording's text, decompressed if need be, with a cut-short last line left out. */
export async function readRecordingText(path: string): Promise<string> {
  const bytes = await readFile(path);
  const text = (isGzipped(bytes) ? await gunzipTolerant(bytes) : bytes).toString('utf8');
  return withoutPartialLastLine(text);
}

/** `text` up to its last complete line: a last line is kept when it ends in a newline or parses. */
export function withoutPartialLastLine(text: string): string {
  const end = text.lastIndexOf('\n');
  const last = text.slice(end + 1);
  if (last.trim() === '' || parsesAsJson(last)) return text;
  return text.slice(0, end + 1);
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The recording's lines, parsed, one at a time: the file is streamed, never held whole. */
export async function* readRecording(path: string): AsyncGenerator<RecordingEntry> {
  const bytes: Readable = createReadStream(path);
  const input = (await startsGzipped(path)) ? bytes.pipe(createGunzip(TOLERANT)) : bytes;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  let pending: { text: string; number: number } | undefined;
  try {
    for await (const text of lines) {
      number++;
      if (text.trim() === '') continue;
      // A line is parsed once the next one is seen, so only the very last line may be a cut-short one.
      if (pending !== undefined) yield parseRecordingLine(pending.text, path, pending.number);
      pending = { text, number };
    }
    if (pending !== undefined && parsesAsJson(pending.text)) yield parseRecordingLine(pending.text, path, pending.number);
  } finally {
    lines.close();
    bytes.destroy();
  }
}

/** One line checked for the fields readers use; the error names the file, the line and the field. */
export function parseRecordingLine(text: string, path: string, lineNumber: number): RecordingEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}:${lineNumber}: not JSON (${(error as Error).message}); a recording holds one JSON object per line`);
  }
  const data = (value as { data?: unknown } | null)?.data as Partial<RecordedFrame> | undefined;
  const problem =
    data === undefined || data === null || typeof data !== 'object'
      ? 'no "data" object'
      : !Array.isArray(data.frame) || data.frame.length === 0
        ? '"data.frame" is not a list of grids'
        : typeof data.action_input?.id !== 'number'
          ? '"data.action_input.id" is missing'
          : typeof data.state !== 'string'
            ? '"data.state" is missing'
            : undefined;
  if (problem !== undefined) throw new Error(`${path}:${lineNumber}: ${problem}; expected {"timestamp", "data": <frame response>} as written by arcbench run`);
  return value as RecordingEntry;
}
