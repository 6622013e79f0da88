/**
 * The experiments the bench runs, built the way users build them: YAML text through parseExperiment
 * (strict schema, agents loaded by name), then runExperiment into a scratch folder of the bench, so the
 * bench measures exactly the path `arcbench run` takes.
 */
import { join } from 'node:path';
import { parseExperiment, runExperiment, type RunResult } from '../src/index.ts';
import { cpuMicroseconds } from './measure.ts';
import { scratchFolder } from './scratch.ts';

export interface BenchRunSettings {
  /** `reference` (in-process) or `server` (our HTTP server on 127.0.0.1, started for the run). */
  target: 'reference' | 'server';
  /** Episodes per game; every game of the catalog is played. */
  episodesPerGame: number;
  maxActions: number;
  concurrency: number;
  /** `recordings:` of the experiment: gzip (the default of real runs), jsonl (plain) or false. */
  recordings: 'gzip' | 'jsonl' | false;
  seed?: number;
  /** With target `server`: play against this running server (`target: { url }`) instead of starting one. */
  url?: string;
  /** The folder the run's temporary folder goes in; the system's temporary folder by default. */
  under?: string;
}

export function experimentYaml(settings: BenchRunSettings): string {
  return [
    'name: bench',
    `target: ${settings.target === 'reference' ? 'reference' : settings.url !== undefined ? `{ url: "${settings.url}", api_key: arcbench-bench }` : '{ server: { backends: 1 } }'}`,
    'games: all',
    'agents:',
    '  - use: random',
    `episodes: ${settings.episodesPerGame}`,
    `seed: ${settings.seed ?? 1}`,
    'budgets:',
    `  max_actions: ${settings.maxActions}`,
    `concurrency: ${settings.concurrency}`,
    `recordings: ${settings.recordings}`,
    '',
  ].join('\n');
}

export interface TimedRun {
  result: RunResult;
  actions: number;
  seconds: number;
  actionsPerSecond: number;
  /** Process CPU time (user + system) of the run: on a shared machine, wall time also measures the neighbours. */
  cpuSeconds: number;
  actionsPerCpuSecond: number;
}

/** Runs one experiment in a fresh temporary folder and times runExperiment alone (not the YAML load). */
export async function timedRun(settings: BenchRunSettings): Promise<TimedRun> {
  const dir = scratchFolder('run', settings.under);
  const experiment = await parseExperiment(experimentYaml(settings), { file: join(dir, 'bench.yaml'), baseDir: dir });
  const started = process.hrtime.bigint();
  const cpuStarted = cpuMicroseconds();
  const result = await runExperiment(experiment, { out: join(dir, 'run') });
  const cpuSeconds = (cpuMicroseconds() - cpuStarted) / 1e6;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.report.status !== 'completed') {
    throw new Error(
      `bench run ${result.report.status}: ${result.report.totals.errors} episode error(s); ${JSON.stringify(result.episodes.find((e) => e.error)?.error)}`,
    );
  }
  const actions = result.report.totals.actions;
  return { result, actions, seconds, actionsPerSecond: actions / seconds, cpuSeconds, actionsPerCpuSecond: actions / cpuSeconds };
}
