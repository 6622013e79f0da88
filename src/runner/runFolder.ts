/**
 * Reads a finished run folder back (run.json and episodes.jsonl) for comparisons, checking the fields
 * it uses, so a wrong folder or a damaged file is named with the line and field instead of producing
 * nonsense numbers.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { RunEpisodes } from '../analysis/episodeSample.ts';
import { issueLines } from './configIssues.ts';
import type { EpisodeRecord } from './episode.ts';
import { episodeScore } from './localScoring.ts';
import { RUN_FORMAT } from './runExperiment.ts';

/** A path that is not a readable run folder; the CLI exits 2 on it. */
export class RunFolderError extends Error {
  readonly code = 'RUN_FOLDER_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'RunFolderError';
  }
}

const runJsonSchema = z.looseObject({
  format: z.literal(RUN_FORMAT),
  name: z.string(),
  agents: z.array(z.looseObject({ label: z.string() })),
});

const recordedRunSchema = z.looseObject({
  guid: z.string(),
  sequence: z.int(),
  actions: z.int().min(0),
  resets: z.int().min(0),
  levels_completed: z.int().min(0),
  completion_actions: z.array(z.int().min(0)),
  state: z.enum(['NOT_FINISHED', 'WIN', 'GAME_OVER']),
});

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
  /** The run's name from run.json. */
  readonly name: string;
  readonly agents: readonly string[];
  readonly episodes: readonly EpisodeRecord[];
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RunFolderError(`${path}: cannot read ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RunFolderError(`${where}: not JSON (${(error as Error).message}); the file is damaged`);
  }
}

/** Reads a run folder, or the folder of the run.json given. */
export function readRunFolder(path: string): RunFolder {
  if (!existsSync(path)) throw new RunFolderError(`${path}: no such file or folder; give a run folder written by \`arcbench run\`, or its run.json`);
  const dir = statSync(path).isDirectory() ? path : dirname(path);
  const runJsonPath = join(dir, 'run.json');
  if (!existsSync(runJsonPath)) {
    throw new RunFolderError(`${dir}: no run.json here; give a run folder written by \`arcbench run\` (a run that never finished has none)`);
  }
  const report = runJsonSchema.safeParse(parseJson(readText(runJsonPath, 'run.json'), runJsonPath));
  if (!report.success) {
    throw new RunFolderError(`${runJsonPath}: not an arcbench run (${RUN_FORMAT}): ${issueLines(report.error.issues).join('; ')}`);
  }
  const logPath = join(dir, 'episodes.jsonl');
  const episodes = readText(logPath, 'the episode log')
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, number }) => {
      const where = `${logPath} line ${number}`;
      const parsed = episodeLineSchema.safeParse(parseJson(line, where));
      if (!parsed.success) throw new RunFolderError(`${where}: ${issueLines(parsed.error.issues).join('; ')}`);
      return parsed.data as unknown as EpisodeRecord;
    });
  return { dir, name: report.data.name, agents: report.data.agents.map((a) => a.label), episodes };
}

/**
 * The folder as the analysis sees it: each episode's own score, from the log where the run wrote it,
 * else (runs of older versions) scored here with the same code.
 */
export function runEpisodesOf(folder: RunFolder, name = basename(folder.dir)): RunEpisodes {
  return {
    name,
    agents: folder.agents,
    episodes: folder.episodes.map((e) => ({ agent: e.agent, game: e.game_id, episode: e.episode, seed: e.seed, score: e.score ?? episodeScore(e) })),
  };
}
