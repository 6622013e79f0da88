/**
 * One attempt at a run: the first one makes the run folder, each resume adds one to the same folder.
 * An attempt starts from what the folder already holds (nothing, for a fresh run) and knows which
 * planned episodes it plays.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Experiment } from '../config/loader.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import type { Plan } from '../plan.ts';
import { createRunDirectory } from '../../runfolder/runDirectory.ts';
import type { LineSink } from '../results/readableLog.ts';
import { createRunLogger } from '../results/runLogger.ts';
import type { AttemptEntry, CardEntry, Provenance, RunReport } from '../../runfolder/runReport.ts';
import type { OpenTarget } from '../targets.ts';
import { runFolderLayout } from '../../runfolder/layout.ts';
import type { ContinuationPlan } from './continuations.ts';

export interface AttemptSetup {
  readonly runDir: string;
  readonly logger: Logger;
  /** 1 for a fresh run, one more per resume. */
  readonly attempt: number;
  /** When the run's first attempt started. */
  readonly startedAt: string;
  /** The first attempt's command-line overrides and provenance. */
  readonly overrides: RunReport['overrides'];
  readonly provenance: Provenance;
  readonly priorAttempts: readonly AttemptEntry[];
  /** Earlier attempts' cards, with those they left open settled. */
  readonly priorCards: readonly CardEntry[];
  /** Current records of finished episodes from earlier attempts, and the superseded ones kept. */
  readonly kept: readonly EpisodeRecord[];
  readonly superseded: readonly EpisodeRecord[];
  /** Planned episodes this attempt plays, in plan order. */
  readonly toPlay: readonly EpisodeSpec[];
  /** Runs are numbered across the whole run in the order they began: this attempt's first number. */
  readonly firstRunSequence: number;
  /** Sentences the user should read (a folder moved aside, cards that could not be closed). */
  readonly notes: readonly string[];
  /** A resume's: the episodes it continues from their checkpoints, the cards it takes over, and those that start over. */
  readonly continuations?: ContinuationPlan;
}

export interface FolderOptions {
  out?: string;
  force?: boolean;
  consoleLog?: LineSink;
  overrides?: RunReport['overrides'];
}

export function targetKind(experiment: Experiment): AttemptEntry['target_kind'] {
  const { target } = experiment.config;
  if (target === 'reference') return 'reference';
  return 'server' in target ? 'server' : 'url';
}

/** The entry of an attempt that starts now (status `running`); counts are filled in when it ends. */
export function attemptEntry(
  setup: { attempt: number; toPlay: readonly unknown[] },
  experiment: Experiment,
  target: OpenTarget,
  provenance: Provenance,
  startedAt: Date,
  retryErrors: boolean,
): AttemptEntry {
  return {
    attempt: setup.attempt,
    started_at: startedAt.toISOString(),
    finished_at: null,
    status: 'running',
    target: target.description,
    target_kind: targetKind(experiment),
    pid: process.pid,
    hostname: hostname(),
    provenance,
    retry_errors: retryErrors,
    to_play: setup.toPlay.length,
    played: 0,
    requests: 0,
    retries_by_cause: {},
    unconfirmed_card_opens: 0,
    service_missing_fields: [],
  };
}

/** A new run: a new folder (a used `--out` refused, or moved aside with `force`), every planned episode to play. */
export function freshAttempt(experiment: Experiment, plan: Plan, at: Date, provenance: Provenance, options: FolderOptions): AttemptSetup {
  const { config } = experiment;
  const { dir, movedAside } = createRunDirectory({
    out: options.out,
    output: config.output,
    name: config.name,
    at,
    recordings: config.recordings !== false,
    force: options.force,
  });
  const logger = createRunLogger(runFolderLayout(dir).log, { redactor: experiment.redactor, ...(options.consoleLog ? { console: options.consoleLog } : {}) });
  const notes = movedAside === undefined ? [] : [`moved the folder that was at ${dir} aside to ${movedAside}`];
  if (movedAside !== undefined) logger.warn({ moved_to: movedAside }, notes[0]);
  return {
    runDir: dir,
    logger,
    attempt: 1,
    startedAt: at.toISOString(),
    overrides: options.overrides ?? {},
    provenance,
    priorAttempts: [],
    priorCards: [],
    kept: [],
    superseded: [],
    toPlay: plan.episodes,
    firstRunSequence: 0,
    notes,
  };
}

/** One past the highest run number in `records`: where the next attempt's numbering starts. */
export function nextRunSequence(records: Iterable<EpisodeRecord>): number {
  let next = 0;
  for (const record of records) for (const run of record.runs) next = Math.max(next, run.sequence + 1);
  return next;
}
