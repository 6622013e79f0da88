/**
 * Reads a finished run folder back (run.json and episodes.jsonl) for comparisons, checking the fields
 * of every episode line it uses, so a wrong folder or a damaged file is named with the line and field
 * instead of producing nonsense numbers.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { RunEpisodes } from '../../analysis/episodeSample.ts';
import { ISSUE_OPTIONS, issueLines } from '../../protocol/index.ts';
import type { EpisodeRecord } from '../episode/episodeRecord.ts';
import { episodeScore } from './localScoring.ts';
import { readRunReport, RunFolderError, type RunReport } from './runReport.ts';

const recordedRunSchema = z.looseObject({
  guid: z.string(),
  sequence: z.int(),
  actions: z.int().min(0),
  resets: z.int().min(0),
  levels_completed: z.int().min(0),
  completion_actions: z.array(z.int().min(0)),
  state: z.enum(['NOT_FINISHED', 'WIN', 'GAME_OVER']),
});

/** The fields of an episodes.jsonl line that comparisons use; the rest passes through unchecked. */
const episodeLineSchema = z.looseObject({
  agent: z.string(),
  game_id: z.string(),
  episode: z.int().min(0),
  seed: z.int(),
  outcome: z.string(),
  score: z.number().min(0).optional(),
  baselines: z.array(z.number()),
  runs: z.array(recordedRunSchema),
});

export interface RunFolder {
  readonly dir: string;
  readonly report: RunReport;
  readonly episodes: readonly EpisodeRecord[];
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

/** Reads a run folder, or the folder of the run.json given. */
export function readRunFolder(path: string): RunFolder {
  if (!existsSync(path)) throw new RunFolderError(`${path}: no such file or folder; give a run folder written by \`arcbench run\`, or its run.json`);
  const dir = statSync(path).isDirectory() ? path : dirname(path);
  if (!existsSync(join(dir, 'run.json'))) throw new RunFolderError(`${dir}: no run.json here; give a run folder written by \`arcbench run\`, or its run.json`);
  const report = readRunReport(dir);
  const logPath = join(dir, 'episodes.jsonl');
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch (error) {
    throw new RunFolderError(`${logPath}: cannot read the episode log (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const episodes: EpisodeRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() !== '') episodes.push(parseLine(line, `${logPath} line ${index + 1}`));
  });
  return { dir, report, episodes };
}

/**
 * A run as the analysis sees it: agent labels and each episode's own score, from the log where the run
 * wrote it, else (runs of older versions) scored here with the same code.
 */
export function runEpisodesOf(name: string, agents: readonly string[], episodes: readonly EpisodeRecord[]): RunEpisodes {
  return {
    name,
    agents,
    episodes: episodes.map((e) => ({ agent: e.agent, game: e.game_id, episode: e.episode, seed: e.seed, score: e.score ?? episodeScore(e) })),
  };
}

export const runEpisodesOfFolder = (folder: RunFolder, name: string): RunEpisodes =>
  runEpisodesOf(
    name,
    folder.report.agents.map((a) => a.label),
    folder.episodes,
  );
