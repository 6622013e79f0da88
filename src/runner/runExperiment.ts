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
import { isServiceFailure, notStartedMessage, RunNotStartedError } from './runNotStarted.ts';
import { RunStop } from './runStop.ts';
import { type ScheduleOutcome, schedule } from './scheduler.ts';
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
  const { runDir, logger } = await openResultsFolderOrClose(experiment, startedAt, options, target);
  const provenance = collectProvenance(config.seed, target.description);
  logger.info({ name: config.name, target: target.description, episodes: plan.episodes.length, games: plan.games.length, provenance }, 'run started');

  const recorder = new RunRecorder({
    runDir,
    logger,
    planned: plan.episodes.length,
    retries: () => retryCount(target),
    redactor: experiment.redactor,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const stop = new RunStop(options.signal, config.budgets.run_seconds, logger);
  // An agent awaiting something that never comes leaves Node nothing to wait for, and Node would end
  // the process (exit 13) with no results and cards open. This keeps it up until the run is over, so
  // the stop (Ctrl-C, run or episode time) can end those episodes and the cards be closed.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  let outcome: ScheduleOutcome;
  try {
    outcome = await schedule({ experiment, plan, target, runDir, recorder, stop, logger });
  } finally {
    clearInterval(keepAlive);
  }

  const failure = outcome.openFailure && notStartedMessage('open a scorecard', target.description, outcome.openFailure);
  const built = buildRunReport({
    experiment,
    plan,
    outcome,
    episodes: recorder.episodes,
    provenance,
    startedAt,
    finishedAt: new Date(),
    interrupted: stop.interrupted,
    failure,
  });
  const { report, table, baseline } = writeResults({
    runDir,
    report: built,
    agentLabels: experiment.agents.map((a) => a.label),
    redactor: experiment.redactor,
    episodes: recorder.episodes,
    logger,
    ...(options.baseline ? { baseline: options.baseline } : {}),
    ...(options.stepSummary ? { stepSummary: options.stepSummary } : {}),
  });
  if (failure !== undefined) throw new RunNotStartedError(failure, runDir, { cause: outcome.openFailure });
  return { runDir, report, episodes: recorder.episodes, table, baseline };
}

/**
 * The plan, or the target closed before the error goes on (a bad game list must not leak a server). A
 * key the service refuses or a service out of reach shows here first: the run did not start.
 */
async function planOrClose(experiment: Experiment, target: OpenTarget): Promise<Plan> {
  try {
    return await resolvePlan(experiment, target.transport);
  } catch (error) {
    await target.close();
    if (isServiceFailure(error)) throw new RunNotStartedError(notStartedMessage('list the games', target.description, error), undefined, { cause: error });
    throw error;
  }
}

async function openResultsFolderOrClose(
  experiment: Experiment,
  at: Date,
  options: RunOptions,
  target: OpenTarget,
): Promise<{ runDir: string; logger: Logger }> {
  const { config } = experiment;
  let runDir: string;
  try {
    runDir = createRunDirectory({ out: options.out, output: config.output, name: config.name, at, recordings: config.recordings });
  } catch (error) {
    await target.close();
    throw error;
  }
  const logger = createRunLogger(join(runDir, 'run.log'), options.consoleLog ? { console: options.consoleLog } : {});
  return { runDir, logger };
}

function retryCount(target: OpenTarget): number {
  return Object.values(target.transport.stats().retries).reduce((a, b) => a + b, 0);
}
