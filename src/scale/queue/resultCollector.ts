/**
 * The coordinator's side of the results: each episode's record comes back as its job's result (a
 * BullMQ completed event, or read from the job when an event was missed), and goes to the run's
 * recorder exactly once. A job that failed (its workers kept dying: it stalled more than MAX_STALLS
 * times) becomes an error record, so no planned episode is lost without a trace.
 */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { describeEpisodeKey, keyOfRecord, keyOfSpec } from '../../runfolder/episodeKey.ts';
import { type EpisodeRecord, startedRecord } from '../../runfolder/episodeRecord.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import { jobIdOf, keyOfJobId } from './episodeJob.ts';

export class ResultCollector {
  /** Planned episodes without a record yet, by key. */
  readonly #pending = new Map<string, EpisodeSpec>();
  readonly #onRecord: (record: EpisodeRecord) => void;
  readonly #logger: Logger;
  #resolveDone!: () => void;
  /** Resolves when every planned episode has its record. */
  readonly done = new Promise<void>((resolve) => (this.#resolveDone = resolve));

  constructor(planned: readonly EpisodeSpec[], onRecord: (record: EpisodeRecord) => void, logger: Logger) {
    for (const spec of planned) this.#pending.set(keyOfSpec(spec), spec);
    this.#onRecord = onRecord;
    this.#logger = logger;
    if (this.#pending.size === 0) this.#resolveDone();
  }

  get remaining(): number {
    return this.#pending.size;
  }

  completed(jobId: string, value: unknown): void {
    const key = keyOfJobId(jobId);
    const spec = this.#pending.get(key);
    if (spec === undefined) return; // a result already taken, or of no planned episode: nothing to add
    if (!isRecordOf(value, key)) {
      this.#take(key, failedRecord(spec, 'worker_result', `the worker's result for ${describeEpisodeKey(key)} is not its episode record`));
      return;
    }
    this.#take(key, value);
  }

  failed(jobId: string, reason: string): void {
    const key = keyOfJobId(jobId);
    const spec = this.#pending.get(key);
    if (spec === undefined) return;
    this.#logger.error({ episode: describeEpisodeKey(key), reason }, 'no worker finished this episode');
    this.#take(key, failedRecord(spec, 'worker_lost', `no worker finished ${describeEpisodeKey(key)}: ${reason}`));
  }

  /** Reads the result of every pending job that has finished, for events a dropped connection missed. */
  async reconcile(queue: Queue): Promise<void> {
    for (const key of [...this.#pending.keys()]) {
      const job = await queue.getJob(jobIdOf(key));
      if (job?.finishedOn === undefined) continue;
      if (job.failedReason) this.failed(job.id!, job.failedReason);
      else this.completed(job.id!, job.returnvalue);
    }
  }

  #take(key: string, record: EpisodeRecord): void {
    this.#pending.delete(key);
    this.#onRecord(record);
    if (this.#pending.size === 0) this.#resolveDone();
  }
}

function isRecordOf(value: unknown, key: string): value is EpisodeRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Partial<EpisodeRecord>;
  return (
    typeof record.agent === 'string' &&
    typeof record.game_id === 'string' &&
    typeof record.episode === 'number' &&
    Array.isArray(record.runs) &&
    keyOfRecord(record as EpisodeRecord) === key
  );
}

function failedRecord(spec: EpisodeSpec, kind: string, message: string): EpisodeRecord {
  const record = startedRecord(spec.agent.label, spec.game, spec.index, spec.seed, '', Date.now());
  record.error = { kind, message };
  return record;
}
