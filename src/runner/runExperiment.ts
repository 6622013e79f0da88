/**
 * Runs an experiment end to end. It reads as the run does: open the target, lay out the plan, open the
 * results folder, schedule the episodes (cards opened, played, always closed), then write the results.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Experiment } from './config/loader.ts';
import type { EpisodeRecord } from './episode/episodeRecord.ts';
import { type Plan, resolvePlan } from './plan.ts';
import type { ProgressDisplay } from './progress.ts';
import { buildRunReport } from './results/buildRunReport.ts';
import { collectProvenance } from './results/provenance.ts';
import type { BaselineOptions, BaselineOutcome } from './results/baselineComparison.ts';
import type { LineSink } from './results/readableLog.ts';
import { createRunDirectory } from './results/runDirectory.ts';
import { createRunLogger } from './results/runLogger.ts';
import { RunRecorder } from './results/runRecorder.ts';
import type { RunReport } from './results/runReport.ts';
import { writeResults } from './results/writeResults.ts';
import { RunStop } from './runStop.ts';
import { schedule } from './scheduler.ts';
import { type OpenTarget, openTarget } from './targets.ts';

export { RUN_FORMAT } from './results/runReport.ts';
export type { AgentResult, RunReport, RunStatus } from './results/runReport.ts';

export interface RunOptions {
  /** Results folder; default `<config.output>/<timestamp>-<name>/`. */
  out?: string;
  /** Abort to interrupt: no new episode starts, in-flight ones stop at their next step, cards close. */
  signal?: AbortSignal;
  /** Also log short readable lines here (the CLI's stderr in CI); run.log is always written. */
  consoleLog?: LineSink;
  progress?: ProgressDisplay;
  /** Compare the finished run with this baseline run and write comparison.json / comparison.md. */
  baseline?: BaselineOptions;
  /** Append the results (and comparison) as markdown to this file: GitHub's GITHUB_STEP_SUMMARY. */
  stepSummary?: string;
  /**
   * Files written into the run folder once its results are (the CLI adds report.html). One that
   * fails is logged in run.log and left out: the run and its results stand.
   */
  extraResults?: readonly ResultFile[];
}

export interface ResultFile {
  /** The file's name, for the log. */
  name: string;
  write(runDir: string): Promise<unknown>;
}

export interface RunResult {
  runDir: string;
  report: RunReport;
  episodes: EpisodeRecord[];
  /** The results table, drawn for a terminal. */
  table: string;
  /** The comparison with `options.baseline` (or why there is none); null without a baseline. */
  baseline: BaselineOutcome | null;
}

export async function runExperiment(experiment: Experiment, options: RunOptions = {}): Promise<RunResult> {
  const { config } = experiment;
  const startedAt = new Date();
  const target = await openTarget(config);
  const plan = await planOrClose(experiment, target);
  const { runDir, logger } = openResultsFolder(experiment, startedAt, options);
  const provenance = collectProvenance(config.seed, target.description);
  logger.info({ name: config.name, target: target.description, episodes: plan.episodes.length, games: plan.games.length, provenance }, 'run started');

  const recorder = new RunRecorder({ runDir, logger, planned: plan.episodes.length, retries: () => retryCount(target), ...(options.progress ? { progress: options.progress } : {}) });
  const stop = new RunStop(options.signal, config.budgets.run_seconds, logger);
  const outcome = await schedule({ experiment, plan, target, runDir, recorder, stop, logger });

  const built = buildRunReport({ experiment, plan, outcome, episodes: recorder.episodes, provenance, startedAt, finishedAt: new Date(), interrupted: stop.interrupted });
  const { report, table, baseline } = writeResults({
    runDir,
    report: built,
    agentLabels: experiment.agents.map((a) => a.label),
    episodes: recorder.episodes,
    logger,
    ...(options.baseline ? { baseline: options.baseline } : {}),
    ...(options.stepSummary ? { stepSummary: options.stepSummary } : {}),
  });
  await writeExtraResults(runDir, options.extraResults ?? [], logger);
  return { runDir, report, episodes: recorder.episodes, table, baseline };
}

/** The plan, or the target closed before the error goes on (a bad game list must not leak a server). */
async function planOrClose(experiment: Experiment, target: OpenTarget): Promise<Plan> {
  try {
    return await resolvePlan(experiment, target.transport);
  } catch (error) {
    await target.close();
    throw error;
  }
}

function openResultsFolder(experiment: Experiment, at: Date, options: RunOptions): { runDir: string; logger: Logger } {
  const { config } = experiment;
  const runDir = createRunDirectory({ out: options.out, output: config.output, name: config.name, at, recordings: config.recordings !== false });
  const logger = createRunLogger(join(runDir, 'run.log'), options.consoleLog ? { console: options.consoleLog } : {});
  return { runDir, logger };
}

async function writeExtraResults(runDir: string, files: readonly ResultFile[], logger: Logger): Promise<void> {
  for (const file of files) {
    try {
      await file.write(runDir);
      logger.info({ file: file.name }, 'result file written');
    } catch (error) {
      logger.error({ file: file.name, error: (error as Error).message }, 'writing a result file failed; the run and its results stand');
    }
  }
  if (files.length > 0) logger.flush();
}

function retryCount(target: OpenTarget): number {
  return Object.values(target.transport.stats().retries).reduce((a, b) => a + b, 0);
}
