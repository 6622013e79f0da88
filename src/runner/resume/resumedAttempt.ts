/**
 * A resume of a run folder: read it, check it may be continued (no live process writes it, the
 * experiment still plans the same episodes), tidy what a killed process left (temp files, a torn last
 * line), settle the cards earlier attempts left open, and choose the episodes to play.
 */
import { ArcbenchError } from '../../errors.ts';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Plan } from '../plan.ts';
import { type RunFolder, readRunFolder, removeStaleTempFiles, rewriteEpisodeLog } from '../../runfolder/readRunFolder.ts';
import type { LineSink } from '../results/readableLog.ts';
import type { Redactor } from '../../redaction.ts';
import { createRunLogger } from '../results/runLogger.ts';
import { type AttemptEntry, type PlanFingerprint, type Provenance, RunFolderError, type RunReport, readRunReport } from '../../runfolder/runReport.ts';
import type { OpenTarget } from '../targets.ts';
import { type AttemptSetup, nextRunSequence } from './attempt.ts';
import { fingerprintDifferences } from './planFingerprint.ts';
import { selectEpisodes } from './resumeSelection.ts';
import { settleStaleCards } from './staleCards.ts';
import { planContinuations } from './continuations.ts';
import { episodesInFlight } from '../../runfolder/episodeFiles.ts';
import { runFolderLayout } from '../../runfolder/layout.ts';

export interface ResumeOptions {
  runDir: string;
  /** Also play again the episodes whose outcome was `error` (their records are kept, superseded). */
  retryErrors?: boolean;
}

/** Why this resume continues no episode from its checkpoint, when it cannot (given by the runner). */
export interface ContinuationLimits {
  readonly noContinuation?: string | undefined;
  /** Why an episode in flight at the death that left no checkpoint starts over (its sessions died with the process, or it had just begun). */
  readonly inFlightReason?: string | undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Refuses a folder a live process still writes: two writers would mix their episodes. */
function checkNotBusy(dir: string, report: RunReport): void {
  for (const attempt of report.attempts) {
    if (attempt.status !== 'running' || attempt.pid === process.pid) continue;
    if (attempt.hostname !== hostname()) continue; // another machine's process cannot be asked; its run.json says running
    if (processAlive(attempt.pid)) {
      throw new RunFolderError(
        `${dir}: attempt ${attempt.attempt} of this run is still running (process ${attempt.pid}); stop it (Ctrl-C) before resuming`,
        'RUN_FOLDER_BUSY',
      );
    }
  }
}

function checkSameEpisodes(folder: RunFolder, now: PlanFingerprint): void {
  const changes = fingerprintDifferences(folder.report.plan, now);
  if (changes.length === 0) return;
  throw new RunFolderError(
    `${folder.dir}: the experiment changed since this run started, in ways that change its episodes: ${changes.join('; ')}. ` +
      'Put those settings back to resume, or start a new run (another --out, or --force to move this folder aside)',
    'RUN_FOLDER_CONFIG_CHANGED',
  );
}

/** Attempts a resume finds still `running` died with their process. */
function markDead(attempts: readonly AttemptEntry[]): AttemptEntry[] {
  return attempts.map((a) => (a.status === 'running' ? { ...a, status: 'died' } : a));
}

/** Why an episode in flight at the death starts over when nothing more is known of it. */
const IN_FLIGHT_WITHOUT_CHECKPOINT = 'it was in flight when its process died, before a checkpoint of it was written';

/** The number of the attempt a resume of this run makes. */
export function nextAttempt(report: RunReport): number {
  return Math.max(...report.attempts.map((a) => a.attempt)) + 1;
}

function checkStarted(dir: string): void {
  const files = runFolderLayout(dir);
  if (existsSync(files.log) && !existsSync(files.run)) {
    // The first run.json is written before any card opens: a run that died earlier played nothing.
    throw new RunFolderError(`${dir} has no run.json: its run died before it started playing; start it again with: arcbench run <config> --out ${dir} --force`);
  }
}

/** run.json of a folder to resume, after the checks below; a RunFolderError says what is wrong. */
export function readResumableReport(runDir: string): RunReport {
  const dir = resolve(runDir);
  checkStarted(dir);
  const report = readRunReport(dir);
  checkNotBusy(dir, report);
  return report;
}

/** Reads and checks the whole folder before anything is opened; a RunFolderError says what is wrong. */
export function openResumableFolder(options: ResumeOptions): RunFolder {
  const dir = resolve(options.runDir);
  checkStarted(dir);
  const folder = readRunFolder(dir);
  checkNotBusy(dir, folder.report);
  return folder;
}

/** The run's log, opened again for this attempt, with a line saying what the resume found and plays. */
function resumeLogger(
  dir: string,
  options: { consoleLog?: LineSink | undefined; redactor?: Redactor },
  found: { attempt: number; selection: ReturnType<typeof selectEpisodes>; tornTail: boolean; stale: ReturnType<typeof removeStaleTempFiles> },
) {
  const logger = createRunLogger(runFolderLayout(dir).log, {
    ...(options.redactor ? { redactor: options.redactor } : {}),
    ...(options.consoleLog ? { console: options.consoleLog } : {}),
  });
  const { attempt, selection, tornTail, stale } = found;
  logger.info(
    {
      attempt,
      to_play: selection.toPlay.length,
      kept: selection.kept.length,
      replayed_errors: selection.replayedErrors,
      replayed_cut: selection.replayedCut,
      torn_last_line: tornTail,
      stale_temp_files: stale,
    },
    'run resumed',
  );
  return logger;
}

export async function resumedAttempt(
  folder: RunFolder,
  plan: Plan,
  fingerprint: PlanFingerprint,
  target: OpenTarget,
  options: ResumeOptions & ContinuationLimits & { consoleLog?: LineSink | undefined; redactor?: Redactor },
): Promise<AttemptSetup> {
  checkSameEpisodes(folder, fingerprint);
  const { report, dir } = folder;
  const attempt = nextAttempt(report);
  const selection = selectEpisodes(plan, folder.records, { attempt, retryErrors: options.retryErrors ?? false, where: runFolderLayout(dir).episodes });
  // Before anything is written: a finished run is left exactly as it was.
  if (selection.toPlay.length === 0 && !folder.tornTail && report.status === 'completed') throw new NothingToResumeError(dir, selection.kept.length);
  const stale = removeStaleTempFiles(dir);
  if (selection.newlySuperseded > 0 || folder.tornTail) rewriteEpisodeLog(dir, folder.records);

  const logger = resumeLogger(dir, options, { attempt, selection, tornTail: folder.tornTail, stale });
  const cards = report.cards.map((card) => ({ ...card }));
  const attempts = markDead(report.attempts);
  const continuations = await planContinuations(cards, {
    dir,
    attempt,
    toPlay: selection.toPlay,
    target,
    disabled: options.noContinuation,
    inFlight: episodesInFlight(dir, folder.records),
    inFlightReason: options.inFlightReason ?? IN_FLIGHT_WITHOUT_CHECKPOINT,
    logger,
  });
  // Cards taken over stay open: their episodes go on on them. settleStaleCards changes the entries in place.
  const notes = await settleStaleCards(
    cards.filter((card) => card.continued_by_attempt !== attempt),
    attempts,
    target,
    attempt,
    logger,
  );
  notes.push(...continuations.notes);
  if (folder.tornTail) notes.push(tornTailNote(logger));
  return {
    runDir: dir,
    logger,
    attempt,
    startedAt: report.started_at,
    overrides: report.overrides,
    provenance: report.provenance as Provenance,
    priorAttempts: attempts,
    priorCards: cards,
    kept: selection.kept,
    superseded: selection.superseded,
    toPlay: selection.toPlay,
    firstRunSequence: Math.max(nextRunSequence(folder.records), continuations.nextRunSequence),
    notes,
    continuations,
  };
}

/** Logged as the other notes are: the CLI says them at the end only when the log is not on stderr. */
function tornTailNote(logger: { warn(message: string): void }): string {
  const torn = 'the last line of episodes.jsonl was cut off mid-write; that episode is played again';
  logger.warn(torn);
  return torn;
}

/** A resume of a run that played its whole plan: it changes nothing, and says so (`arcbench resume` exits 0). */
export class NothingToResumeError extends ArcbenchError {
  constructor(dir: string, episodes: number) {
    super(
      'NOTHING_TO_RESUME',
      `${dir}: nothing left to play; every planned episode (${episodes}) has its record and the run is completed, so the folder is left unchanged (--retry-errors plays failed episodes again)`,
    );
  }
}
