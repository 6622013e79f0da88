/**
 * Reads a run folder back (run.json and episodes.jsonl) for resumes and comparisons. Every episode line
 * has the fields they use checked, so a wrong folder or a damaged file is named with the line and field
 * instead of producing nonsense numbers. A last line cut off mid-write (the machine went down) is
 * dropped and said so; records a later attempt replaced (superseded) are kept apart from the current
 * ones, which are what every count uses.
 */
import { withClosedCardBaselines } from './cardBaselines.ts';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ISSUE_OPTIONS, issueLines } from '../protocol/index.ts';
import type { EpisodeRecord } from './episodeRecord.ts';
import { readRunReport, RunFolderError, type RunReport, usageSchema } from './runReport.ts';
import { EPISODES_FILE, RUN_FILE } from './fileNames.ts';

/** A recorded run as episodes.jsonl holds it (a checkpoint's ledger too). */
export const recordedRunSchema = z.looseObject({
  guid: z.string(),
  sequence: z.int(),
  actions: z.int().min(0),
  resets: z.int().min(0),
  levels_completed: z.int().min(0),
  completion_actions: z.array(z.int().min(0)),
  state: z.enum(['NOT_FINISHED', 'WIN', 'GAME_OVER']),
});

/** The fields of an episodes.jsonl line that resumes and comparisons use; the rest passes through unchecked. */
const episodeLineSchema = z.looseObject({
  agent: z.string(),
  game_id: z.string(),
  episode: z.int().min(0),
  seed: z.int(),
  attempt: z.int().min(1),
  outcome: z.string(),
  score: z.number().min(0).nullable().optional(),
  usage: usageSchema.optional(),
  baselines: z.array(z.number()),
  runs: z.array(recordedRunSchema),
});

export interface RunFolder {
  readonly dir: string;
  readonly report: RunReport;
  /** The current record of each episode: superseded ones (a later attempt played them again) left out. */
  readonly episodes: readonly EpisodeRecord[];
  /** Every line of episodes.jsonl in file order, superseded ones included. */
  readonly records: EpisodeRecord[];
  /** The last line was cut off mid-write and is not among the records; rewrite the log before appending. */
  readonly tornTail: boolean;
}

function parseLine(line: string, where: string): EpisodeRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    throw new RunFolderError(`${where}: not JSON (${(error as Error).message}); the episode log is damaged`);
  }
  const parsed = episodeLineSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) throw new RunFolderError(`${where}: not an episode of this arcbench: ${issueLines(parsed.error.issues).join('; ')}`);
  return parsed.data as unknown as EpisodeRecord;
}

/** Parses episodes.jsonl text; `tornTail` when its last line was cut off before its newline (and does not parse). */
export function parseEpisodeLines(text: string, path: string): { records: EpisodeRecord[]; tornTail: boolean } {
  const lines = text.split('\n');
  // Text that ends with a newline splits into a last empty piece; anything else there was cut off.
  const tail = lines.pop() ?? '';
  const records: EpisodeRecord[] = [];
  lines.forEach((line, index) => {
    if (line.trim() !== '') records.push(parseLine(line, `${path} line ${index + 1}`));
  });
  if (tail.trim() === '') return { records, tornTail: false };
  try {
    JSON.parse(tail);
  } catch {
    return { records, tornTail: true };
  }
  records.push(parseLine(tail, `${path} line ${lines.length + 1}`));
  return { records, tornTail: true };
}

/** The records that count: every one not replaced by a later attempt. */
export function currentEpisodes(records: readonly EpisodeRecord[]): EpisodeRecord[] {
  return records.filter((record) => record.superseded === undefined);
}

function readEpisodeLog(dir: string): { records: EpisodeRecord[]; tornTail: boolean } {
  const path = join(dir, EPISODES_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // A run killed before its first episode may have no log yet: it finished nothing.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], tornTail: false };
    throw new RunFolderError(`${path}: cannot read the episode log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseEpisodeLines(text, path);
}

/** Reads a run folder, or the folder of the run.json given. */
export function readRunFolder(path: string): RunFolder {
  if (!existsSync(path)) throw new RunFolderError(`${path}: no such file or folder; give a run folder written by \`arcbench run\`, or its run.json`);
  const dir = statSync(path).isDirectory() ? path : dirname(path);
  if (!existsSync(join(dir, RUN_FILE))) throw new RunFolderError(`${dir}: no run.json here; give a run folder written by \`arcbench run\`, or its run.json`);
  const report = readRunReport(dir);
  const { records, tornTail } = readEpisodeLog(dir);
  return { dir, report, episodes: withClosedCardBaselines(currentEpisodes(records), report.cards), records, tornTail };
}

/**
 * Replaces episodes.jsonl with `records` atomically (a temp file and a rename): a process killed
 * half way leaves the old file whole. Used when a resume marks records superseded.
 */
export function rewriteEpisodeLog(dir: string, records: readonly EpisodeRecord[]): void {
  const path = join(dir, EPISODES_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
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
