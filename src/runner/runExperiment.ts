/**
 * Runs an experiment end to end, or resumes one. It reads as the run does: open the target, lay out
 * the plan, open the results folder (a new one, or the run's own with what it already holds), write
 * run.json, schedule the episodes still to play (cards opened, played, always closed), then write the
 * results.
 */
import { servedPageRoot } from './scorecardPageCheck.ts';
import { withClosedCardBaselines } from '../runfolder/cardBaselines.ts';
import type { Logger } from 'pino';
import type { Experiment } from './config/loader.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { RunFolderWriteError } from '../errors.ts';
import { type Plan, resolvePlan } from './plan.ts';
import { estimateLines, estimatePlan, refuseOverBudget } from './planEstimate.ts';
import type { ProgressDisplay } from './progress.ts';
import type { HeartbeatTiming } from './heartbeat.ts';
import { type AttemptSetup, attemptEntry, freshAttempt } from './resume/attempt.ts';
import { planFingerprint } from './resume/planFingerprint.ts';
import { type ResumeOptions, nextAttempt, openResumableFolder, resumedAttempt } from './resume/resumedAttempt.ts';
import { buildRunReport, type RunReportInput } from './results/buildRunReport.ts';
import { collectProvenance, type Provenance } from './results/provenance.ts';
import type { BaselineOptions, BaselineOutcome } from './results/baselineComparison.ts';
import type { LineSink } from './results/readableLog.ts';
import { statusAtRunEnd } from './results/runCompleteness.ts';
import { RunJournal } from './results/runJournal.ts';
import { RunRecorder } from './results/runRecorder.ts';
import type { AttemptEntry, RunReport } from '../runfolder/runReport.ts';
import { writeResults } from './results/writeResults.ts';
import { runFolderLayout } from '../runfolder/layout.ts';
import { writeManifest } from '../runfolder/manifest.ts';
import { isServiceFailure, notStartedMessage, RunNotStartedError } from './runNotStarted.ts';
import { RunStop } from './runStop.ts';
import { type ScheduleOutcome, type Scheduler, schedule } from './scheduler.ts';
import { type OpenTarget, openTarget, sessionsEndWithProcess } from './targets.ts';
import { TransportLog } from './transportLog.ts';
import { idleCloseWarnings } from './idleCloseWarning.ts';
import { describeAgent } from './agentDescription.ts';
import { closeAgents } from '../agent/closeAgents.ts';
import type { Shard } from './shard.ts';

export { RUN_FORMAT } from '../runfolder/runReport.ts';
export type { AgentResult, RunReport, RunStatus } from '../runfolder/runReport.ts';

export interface RunOptions {
  /** How often decisions that take long are reported (runner/heartbeat.ts); the default suits people, tests shorten it. */
  heartbeat?: HeartbeatTiming;
  /** Each line an agent process prints, prefixed with its episode, as it comes (`run --agent-output`). */
  agentOutput?: (line: string) => void;
  /** Results folder; default `<config.output>/<timestamp>-<name>/`. A used folder is refused. */
  out?: string;
  /**
   * With `out`: move a used folder aside (renamed, never deleted) instead of refusing it. Also: start
   * a plan whose estimated minimum cost is over budgets.max_run_cost_usd (the budget still stops it).
   */
  force?: boolean;
  /** Told the plan's cost estimate once the plan is known, before any episode (the CLI prints it). */
  onEstimate?: (lines: readonly string[]) => void;
  /** Continue the run in this folder: play only the planned episodes it has no finished record of. */
  resume?: ResumeOptions;
  /** The command line's overrides, kept in run.json so a resume applies them again. */
  overrides?: RunReport['overrides'];
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
  /** Play one part of the plan (`--shard i/n`); a resumed run plays the part its folder names. */
  shard?: Shard;
  /**
   * What plays the episodes; by default this process, on a p-queue. `--queue` passes the worker pool's
   * (`queueScheduler`), so the runner loads the pool only when it is asked for.
   */
  scheduler?: Scheduler;
}

export interface ResultFile {
  /** The file's name, for the log. */
  name: string;
  write(runDir: string): Promise<unknown>;
}

export interface RunResult {
  runDir: string;
  report: RunReport;
  /** The current record of every planned episode played so far, by this attempt or an earlier one. */
  episodes: EpisodeRecord[];
  /** The results table, drawn for a terminal. */
  table: string;
  /** The comparison with `options.baseline` (or why there is none); null without a baseline. */
  baseline: BaselineOutcome | null;
  /** Sentences for the user: a folder moved aside, cards of a dead attempt closed or not closable. */
  notes: string[];
}

export async function runExperiment(experiment: Experiment, options: RunOptions = {}): Promise<RunResult> {
  const opened = await openAttempt(experiment, options);
  const live = startAttempt(experiment, opened, options);
  let outcome: ScheduleOutcome;
  try {
    outcome = await playAttempt(experiment, opened, live, options);
  } finally {
    // No process of the run outlives it (a Python agent's fork server); before the results, which end run.log.
    await closeAgents(experiment.agents, (sentence) => opened.setup.logger.warn(sentence));
  }
  return finishAttempt(experiment, opened, live, outcome, options);
}

/** What an attempt starts from: its target and plan, and its folder (a new one, or the run's own). */
interface OpenedAttempt {
  readonly startedAt: Date;
  readonly target: OpenTarget;
  readonly plan: Plan;
  readonly fingerprint: ReturnType<typeof planFingerprint>;
  readonly provenance: Provenance;
  readonly setup: AttemptSetup;
}

/** The parts of an attempt that live while it plays. */
interface LiveAttempt {
  readonly attempt: AttemptEntry;
  readonly snapshot: Omit<RunReportInput, 'episodes' | 'cards' | 'attempts' | 'finishedAt' | 'status'>;
  readonly journal: RunJournal;
  readonly recorder: RunRecorder;
  readonly stop: RunStop;
}

/** Opens the target, lays out the plan (one shard's part, if sharded) and the folder. */
async function openAttempt(experiment: Experiment, options: RunOptions): Promise<OpenedAttempt> {
  const { config } = experiment;
  const startedAt = new Date();
  const resumable = options.resume ? openResumableFolder(options.resume) : undefined;
  const shard = resumable?.report.shard ?? options.shard;
  const transportLog = new TransportLog();
  const target = await openTarget(config, resumable ? nextAttempt(resumable.report) : 1, shard, transportLog);
  const plan = await planOrClose(experiment, target, shard);
  // Before the folder is made and before a single call: a plan over its dollar budget is refused.
  await closeOnFailure(target, () => estimateBeforePlaying(experiment, plan, resumable === undefined, options));
  const fingerprint = planFingerprint(experiment, plan);
  const provenance = await collectProvenance(config.seed, target.description, experiment.baseDir);
  const setup = await closeOnFailure(target, () =>
    resumable
      ? resumedAttempt(resumable, plan, fingerprint, target, {
          ...options.resume!,
          consoleLog: options.consoleLog,
          redactor: experiment.redactor,
          noContinuation: noContinuation(experiment, options),
          inFlightReason: sessionsEndWithProcess(config.target),
        })
      : freshAttempt(experiment, plan, startedAt, provenance, options),
  );
  transportLog.attach(setup.logger);
  return { startedAt, target, plan, fingerprint, provenance, setup };
}

/** Logs the start, writes run.json with status `running`, and makes the recorder and the stop. */
function startAttempt(experiment: Experiment, opened: OpenedAttempt, options: RunOptions): LiveAttempt {
  const { config } = experiment;
  const { target, plan, setup, provenance } = opened;
  const { runDir, logger } = setup;
  const started = { attempt: setup.attempt, episodes: setup.toPlay.length, planned: plan.episodes.length, games: plan.games.length };
  logger.info({ name: config.name, target: target.description, ...started, provenance }, 'run started');
  const planned = (label: string) => setup.toPlay.filter((spec) => spec.agent.label === label).length;
  for (const warning of idleCloseWarnings(experiment.agents, config, planned)) logger.warn(warning);
  const attempt = attemptEntry(setup, experiment, target, provenance, opened.startedAt, options.resume?.retryErrors ?? false);
  const snapshot = {
    experiment,
    plan,
    fingerprint: opened.fingerprint,
    superseded: setup.superseded,
    overrides: setup.overrides,
    provenance: setup.provenance,
    startedAt: setup.startedAt,
  };
  const running = buildRunReport({
    ...snapshot,
    episodes: setup.kept,
    cards: [...setup.priorCards],
    attempts: [...setup.priorAttempts, attempt],
    finishedAt: null,
    status: 'running',
  });
  const journal = new RunJournal(runDir, running, setup.attempt, target.description);
  // A failed write to the folder (a full disk) stops the run in order: no new episode, the cards closed.
  let stopOnDisk = (): void => undefined;
  const recorder = new RunRecorder({
    runDir,
    logger,
    onDiskFailure: () => stopOnDisk(),
    planned: plan.episodes.length,
    prior: setup.kept,
    attempt: setup.attempt,
    retries: () => retryCount(target),
    redactor: experiment.redactor,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const stop = new RunStop(options.signal, config.budgets.run_seconds, logger);
  stopOnDisk = () => stop.stop('error');
  journal.onWriteFailure = (cause) => recorder.diskFailed(cause);
  return { attempt, snapshot, journal, recorder, stop };
}

/** Plays the episodes still to play, here or on the worker pool; cards are opened and always closed. */
async function playAttempt(experiment: Experiment, opened: OpenedAttempt, live: LiveAttempt, options: RunOptions): Promise<ScheduleOutcome> {
  const { target, plan, setup } = opened;
  const scheduled = {
    experiment,
    plan: { ...plan, episodes: setup.toPlay },
    target,
    runDir: setup.runDir,
    recorder: live.recorder,
    stop: live.stop,
    logger: setup.logger,
    cardEvents: live.journal,
    firstRunSequence: setup.firstRunSequence,
    attempt: setup.attempt,
    ...(setup.continuations === undefined ? {} : { continuations: setup.continuations }),
    overrides: setup.overrides,
    fingerprint: opened.fingerprint,
    ...(options.heartbeat === undefined ? {} : { heartbeat: options.heartbeat }),
    ...(options.agentOutput === undefined ? {} : { agentOutput: options.agentOutput }),
  };
  // An agent awaiting something that never comes leaves Node nothing to wait for, and Node would end
  // the process (exit 13) with no results and cards open. This keeps it up until the run is over, so
  // the stop (Ctrl-C, run or episode time) can end those episodes and the cards be closed.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    return await (options.scheduler ?? schedule)(scheduled);
  } finally {
    clearInterval(keepAlive);
  }
}

/** Why a resume continues no episode from its checkpoint this time, if it cannot. */
function noContinuation(experiment: Experiment, options: RunOptions): string | undefined {
  if (options.scheduler !== undefined && options.scheduler.continuesSessions !== true)
    return 'this scheduler does not continue episodes from their checkpoints';
  if (experiment.config.scorecard.competition_mode) return 'a competition card cannot be read, so whether its last action was counted cannot be known';
  return undefined;
}

/** The attempt's last run.json, the tables, junit.xml, the comparison and the extra files. */
async function finishAttempt(
  experiment: Experiment,
  opened: OpenedAttempt,
  live: LiveAttempt,
  outcome: ScheduleOutcome,
  options: RunOptions,
): Promise<RunResult> {
  const { target, setup } = opened;
  const { runDir, logger } = setup;
  const { stop, recorder } = live;
  const failure = (outcome.openFailure && notStartedMessage('open a scorecard', target.description, outcome.openFailure)) ?? recorder.diskFailure;
  const finished = finishedAttempt(live.attempt, recorder, outcome);
  // Baselines only the close answers gave (competition mode against a service whose game list has none).
  const episodes = withClosedCardBaselines(recorder.episodes, live.journal.cards);
  const end = {
    interrupted: stop.interrupted,
    stoppedOnRunTime: stop.signal.aborted && !stop.interrupted && stop.reason === 'time',
    stoppedOnCost: outcome.costStopped,
  };
  const built = buildRunReport({
    ...live.snapshot,
    episodes,
    cards: live.journal.cards,
    attempts: [...setup.priorAttempts, finished],
    finishedAt: finished.finished_at,
    status: (totals) => statusAtRunEnd({ ...end, totals }),
    pageRoot: await servedPageRoot(target, live.journal.cards),
    failure,
  });
  // An attempt ends with the status it leaves the run in (the report holds its own, redacted copy).
  finished.status = built.status;
  const reported = built.attempts.at(-1);
  if (reported !== undefined) reported.status = built.status;
  const results = {
    runDir,
    report: built,
    agentLabels: experiment.agents.map((a) => a.label),
    episodes,
    redactor: experiment.redactor,
    logger,
  };
  if (recorder.diskFailure !== undefined) {
    // The disk may still take run.json (it is small); whatever it does not take, the error says.
    tryWriting(() => writeResults(results));
    throw new RunFolderWriteError(`${recorder.diskFailure} (${runDir})`);
  }
  const { report, table, baseline } = writeResults({
    ...results,
    ...(options.baseline ? { baseline: options.baseline } : {}),
    ...(options.stepSummary ? { stepSummary: options.stepSummary } : {}),
  });
  await writeExtraResults(runDir, options.extraResults ?? [], logger);
  // Last of all, once nothing more is written to the folder (run.log included: the line goes first).
  logger.info({ file: runFolderLayout(runDir).manifest }, 'writing the manifest of the run folder');
  logger.flush();
  writeManifest(runDir, report);
  if (failure !== undefined) throw new RunNotStartedError(failure, runDir, { cause: outcome.openFailure });
  return { runDir, report, episodes, table, baseline, notes: [...setup.notes] };
}

/** The plan's cost estimate, told to the caller; a fresh run whose minimum is over its budget is refused. */
function estimateBeforePlaying(experiment: Experiment, plan: Plan, fresh: boolean, options: RunOptions): void {
  const estimate = estimatePlan(experiment, plan);
  // Told when a cost is at stake: an agent with a figure, or one that says it calls a model but not how
  // much (an agent that says nothing is named by `plan --estimate`, not before every run).
  const saysItCalls = experiment.agents.some((agent) => estimate.not_estimated.includes(agent.label) && describeAgent(agent).callsModel === true);
  if (saysItCalls || estimate.agents.some((agent) => agent.basis !== 'none')) options.onEstimate?.(estimateLines(estimate));
  if (fresh) refuseOverBudget(experiment, estimate, options.force === true);
}

/**
 * The plan, or the target closed before the error goes on (a bad game list must not leak a server). A
 * key the service refuses or a service out of reach shows here first: the run did not start.
 */
async function planOrClose(experiment: Experiment, target: OpenTarget, shard: Shard | undefined): Promise<Plan> {
  try {
    return await closeOnFailure(target, () => resolvePlan(experiment, target.transport, shard));
  } catch (error) {
    if (isServiceFailure(error)) throw new RunNotStartedError(notStartedMessage('list the games', target.description, error), undefined, { cause: error });
    throw error;
  }
}

async function closeOnFailure<T>(target: OpenTarget, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await target.close();
    throw error;
  }
}

/** The attempt's entry once it ended; its status is the run's, decided with the report's totals. */
function finishedAttempt(attempt: AttemptEntry, recorder: RunRecorder, outcome: ScheduleOutcome): AttemptEntry {
  return {
    ...attempt,
    finished_at: new Date().toISOString(),
    played: recorder.played,
    requests: outcome.stats.requests,
    retries_by_cause: outcome.stats.retries,
    ...(outcome.queue === undefined ? {} : { queue: outcome.queue }),
    unconfirmed_card_opens: outcome.stats.unconfirmedOpens,
    service_missing_fields: outcome.stats.missingFields,
  };
}

/** Writes each extra file after the results; one that fails is logged, never thrown (also used by `arcbench merge`). */
export async function writeExtraResults(runDir: string, files: readonly ResultFile[], logger: Logger): Promise<void> {
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

/** A write the run makes after its folder failed once: it may fail again, and the run's error says why already. */
function tryWriting(write: () => unknown): void {
  try {
    write();
  } catch {
    // The disk is still full: run.json keeps its last complete state.
  }
}
