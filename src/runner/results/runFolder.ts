/**
 * Reads a run folder back: run.json checked against its schema, and every line of episodes.jsonl.
 * Lines are our own records, so each gets a cheap check of the fields a resume relies on instead of a
 * schema pass (ten thousand records are read in tens of milliseconds, see `npm run bench resume`).
 * A last line cut off mid-write (the machine went down) is dropped and said so; a damaged line
 * anywhere else stops the read with its line number.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from '../episode/episodeRecord.ts';
import { type RunReport, RunFolderError, readRunReport } from './runReport.ts';

export interface RunFolder {
  readonly dir: string;
  readonly report: RunReport;
  /** Every record of episodes.jsonl in file order, superseded ones included. */
  readonly records: EpisodeRecord[];
  /** The last line was incomplete and is not among `records`; rewrite the log before appending to it. */
  readonly tornTail: boolean;
}

export const EPISODES_FILE = 'episodes.jsonl';

function recordProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const r = value as Partial<EpisodeRecord>;
  if (typeof r.agent !== 'string' || typeof r.game_id !== 'string' || !Number.isInteger(r.episode)) return 'no key (agent, game_id, episode)';
  if (typeof r.outcome !== 'string') return 'no outcome';
  if (!Array.isArray(r.runs)) return 'no runs';
  if (!Number.isInteger(r.attempt)) return 'no attempt';
  return undefined;
}

/** Parses episodes.jsonl text; `tornTail` when the last line was cut off before its newline. */
export function parseEpisodeLines(text: string, path: string): { records: EpisodeRecord[]; tornTail: boolean } {
  const lines = text.split('\n');
  // Text that ends with a newline splits into a last empty piece; anything else there is a line cut off.
  const tail = lines.pop() ?? '';
  const records: EpisodeRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const problem = value === undefined ? 'not JSON' : recordProblem(value);
    if (problem !== undefined) {
      throw new RunFolderError(`${path}: line ${i + 1} is not an episode record (${problem}); the file is damaged: repair or remove that line, then resume`);
    }
    records.push(value as EpisodeRecord);
  }
  return { records, tornTail: tail.trim() !== '' };
}

export function readRunFolder(dir: string): RunFolder {
  const report = readRunReport(dir);
  const path = join(dir, EPISODES_FILE);
  const { records, tornTail } = existsSync(path) ? parseEpisodeLines(readFileSync(path, 'utf8'), path) : { records: [], tornTail: false };
  return { dir, report, records, tornTail };
}

/** The records that count: every one not replaced by a later attempt. */
export function currentEpisodes(records: readonly EpisodeRecord[]): EpisodeRecord[] {
  return records.filter((record) => record.superseded === undefined);
}

/**
 * Replaces episodes.jsonl with `records` atomically (a temp file and a rename): a process killed
 * half way leaves the old file whole. Used when a resume marks records superseded.
 */
export function rewriteEpisodeLog(dir: string, records: readonly EpisodeRecord[]): void {
  const path = join(dir, EPISODES_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, records.map((record) => JSON.stringify(record) + '\n').join(''));
  renameSync(temp, path);
}

/** `run.json.<pid>.tmp`, `episodes.jsonl.<pid>.tmp`: what an atomic write leaves when its process dies half way. */
const TEMP_FILE = /^(run\.json|episodes\.jsonl)\.\d+\.tmp$/;

/** Removes the temp files of writes a killed process never finished (the files they replace are whole); returns their names. */
export function removeStaleTempFiles(dir: string): string[] {
  const stale = readdirSync(dir).filter((name) => TEMP_FILE.test(name));
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale;
}
