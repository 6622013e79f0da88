/**
 * Where a run's finished episodes go as they finish: memory (for the report), episodes.jsonl (durable
 * at once), run.log (one line each), and the live progress line. The scheduler hands each record here.
 */
import type { Logger } from 'pino';
import type { Redactor } from '../../redaction.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { type ProgressDisplay, silentProgress } from '../progress.ts';
import { EpisodeLog } from '../../runfolder/episodeLog.ts';
import { runFolderLayout } from '../../runfolder/layout.ts';

/** Progress hears of every this-many actions (and of every finished episode). */
const PROGRESS_EVERY_ACTIONS = 64;

export class RunRecorder {
  /** Every current record: earlier attempts' finished episodes, then this attempt's as they end. */
  readonly episodes: EpisodeRecord[];
  readonly #log: EpisodeLog;
  readonly #logger: Logger;
  readonly #episodeLines: Logger;
  readonly #progress: ProgressDisplay;
  readonly #onDiskFailure: ((sentence: string) => void) | undefined;
  #diskFailure: string | undefined;
  readonly #planned: number;
  readonly #retries: () => number;
  readonly #redactor: Redactor | undefined;
  readonly #attempt: number;
  readonly #prior: number;
  #actions = 0;
  // Counted as episodes end: filtering every episode on every action made a long run quadratic.
  #errors = 0;

  /** `prior`: the finished episodes of earlier attempts (a resume); `attempt` is stamped on every record added. */
  constructor(options: {
    runDir: string;
    logger: Logger;
    planned: number;
    retries: () => number;
    progress?: ProgressDisplay;
    /** A write to the run folder failed (a full disk): the run stops in order on it. */
    onDiskFailure?: (sentence: string) => void;
    prior?: readonly EpisodeRecord[];
    attempt?: number;
    redactor?: Redactor;
  }) {
    this.episodes = [...(options.prior ?? [])];
    this.#prior = this.episodes.length;
    this.#errors = this.episodes.filter((e) => e.outcome === 'error').length;
    this.#attempt = options.attempt ?? 1;
    this.#log = new EpisodeLog(runFolderLayout(options.runDir).episodes);
    this.#onDiskFailure = options.onDiskFailure;
    this.#log.onFailure = (error) => this.diskFailed(error.message);
    this.#logger = options.logger;
    // The line of every finished episode holds only names and counts built here, never a key; without
    // pino's redaction pass it costs a fifth as much (that pass was a twentieth of an in-process run).
    this.#episodeLines = options.logger.child({}, { redact: [] });
    this.#progress = options.progress ?? silentProgress;
    this.#planned = options.planned;
    this.#retries = options.retries;
    // Only a run whose config took values from the environment pays for a pass over each record.
    this.#redactor = options.redactor?.active === true ? options.redactor : undefined;
    // The live line shows from the start, not only after the first progress: a run whose agents think
    // long would otherwise leave the terminal blank.
    this.#progress.update(this.#snapshot());
  }

  /** After every answer of the service. The live line is redrawn every 100 ms at most; a snapshot per action cost more than the action. */
  countAction(): void {
    if (++this.#actions % PROGRESS_EVERY_ACTIONS === 0) this.#progress.update(this.#snapshot());
  }

  /** Episodes this attempt finished. */
  get played(): number {
    return this.episodes.length - this.#prior;
  }

  add(finished: EpisodeRecord): void {
    finished.attempt = this.#attempt;
    // An agent's error message may quote its own params, which may hold a secret taken from the environment.
    const record = this.#redactor === undefined ? finished : (this.#redactor.value(finished) as EpisodeRecord);
    if (record.outcome === 'error') this.#errors++;
    this.episodes.push(record);
    if (record.error?.kind === 'disk') this.diskFailed(record.error.message);
    try {
      this.#log.append(record);
    } catch {
      // #diskFailed was told; the record stays in memory for run.json.
    }
    this.#progress.update(this.#snapshot());
    const fields = {
      agent: record.agent,
      game: record.game_id,
      episode: record.episode,
      outcome: record.outcome,
      actions: record.actions,
      levels: record.levels_completed,
    };
    if (record.outcome === 'error') this.#logger.error({ ...fields, error: record.error }, 'episode failed');
    else this.#episodeLines.info(fields, 'episode finished');
  }

  /** A sentence the person watching should see now: on the log, and above a terminal's live line. */
  notice(sentence: string): void {
    this.#logger.warn(sentence);
    this.#progress.notice?.(sentence);
  }

  /** Why writing the run folder failed, if it did: the run stopped on it. */
  get diskFailure(): string | undefined {
    return this.#diskFailure;
  }

  /** Never throws: a failed write is kept in diskFailure, so the cards are still closed after it. */
  close(): void {
    this.#progress.stop();
    try {
      this.#log.close();
    } catch (error) {
      this.diskFailed((error as Error).message);
    }
  }

  /** A write to the run folder failed: said once, and the run is stopped in order. */
  diskFailed(cause: string): void {
    if (this.#diskFailure !== undefined) return;
    this.#diskFailure = `a write to the run folder failed (${cause}): the run stopped, its cards closed; free some space, then \`arcbench resume\` plays what is left`;
    this.#logger.error({ error: cause }, this.#diskFailure);
    this.#onDiskFailure?.(this.#diskFailure);
  }

  #snapshot() {
    return { done: this.episodes.length, total: this.#planned, actions: this.#actions, retries: this.#retries(), errors: this.#errors };
  }
}
