/**
 * One worker's part in one queued run. It rebuilds the experiment from the run's description, opens
 * its own target, says it is alive every HEARTBEAT_MS, and takes episode jobs from the run's queue at
 * its concurrency; each job is one episode played from a new RESET on this worker's card for the
 * agent, and its result is the episode's record. A job whose worker died goes on from that worker's
 * checkpoint, on its card and session, when it can (stalledEpisode.ts). When the coordinator says the
 * run is stopping, the worker's episodes stop at their next step; when it says the run ended (or this
 * worker leaves), the worker finishes its jobs, closes its cards, reports its request counts and signs
 * off.
 */
import { baselineNotices, GameBaselines } from '../../episode/gameBaselines.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Experiment, ResolvedAgent } from '../../runner/config/loader.ts';
import { describeError } from '../../episode/episodeError.ts';
import { type EpisodeRecord, startedRecord } from '../../runfolder/episodeRecord.ts';
import type { CheckpointKeeper } from '../../episode/checkpointKeeper.ts';
import { EpisodeSetupBuilder, episodeConfigOf } from '../../episode/episodeSetup.ts';
import { type EpisodeSpec, playEpisode } from '../../episode/runEpisode.ts';
import { RunStop } from '../../runner/runStop.ts';
import { earlierAttempts, noteAttempt } from './episodeAttempts.ts';
import { lostBeforeSession, type StalledStart, stalledStart, type TakenOverCard } from './stalledEpisode.ts';
import { parseEpisodeJob } from './episodeJob.ts';
import { experimentOfRun } from './queuedExperiment.ts';
import type { RedisAddress } from './redisAddress.ts';
import { BULL_PREFIX, type RunKeys, runKeys } from './runKeys.ts';
import { parseRunMeta, QueueRunError, type RunMeta } from './runMeta.ts';
import { readRunState } from './runState.ts';
import { WorkerCards } from './workerCards.ts';
import { closeAgents } from '../../agent/closeAgents.ts';
import { openWorkerTarget, type WorkerTransport } from './workerTarget.ts';

/** How often a worker says it is alive (and looks at the run's state). */
export const HEARTBEAT_MS = 1000;
/** A worker silent this long is taken for dead: its open cards are listed as lost. */
export const ALIVE_TTL_MS = 5 * HEARTBEAT_MS;
/** Times a job may be handed on after its worker stalled before it counts as failed. */
export const MAX_STALLS = 2;

export interface WorkerSettings {
  readonly address: RedisAddress;
  readonly concurrency: number;
  /** The folder holding run folders on a volume shared with the coordinator; undefined: no recordings. */
  readonly recordingsDir: string | undefined;
  /** A job whose worker has not renewed its lock for this long is handed to another worker. */
  readonly stallMs: number;
  readonly logger: Logger;
}

export interface WorkerIdentity {
  readonly id: string;
  readonly hostname: string;
  readonly pid: number;
}

interface SessionParts {
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly meta: RunMeta;
  readonly experiment: Experiment;
  readonly target: WorkerTransport;
  readonly identity: WorkerIdentity;
  readonly settings: WorkerSettings;
}

export class WorkerSession {
  readonly runId: string;
  readonly #parts: SessionParts;
  readonly #agents: ReadonlyMap<string, ResolvedAgent>;
  readonly #cards: WorkerCards;
  readonly #stop: RunStop;
  /**
   * The run's folder on the shared volume, where this worker writes recordings, transcripts and
   * checkpoints (stalledEpisode.ts says why there); undefined without --recordings-dir: none of them.
   */
  readonly #runDir: string | undefined;
  readonly #setup: EpisodeSetupBuilder;
  /** Checkpoints of episodes played to their end, removed once their jobs are complete, by job id. */
  readonly #finishedCheckpoints = new Map<string, CheckpointKeeper>();
  #bull: Worker | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #finishing: Promise<void> | undefined;
  #lastSequence = 0;
  #resolveFinished!: () => void;
  /** Resolves once the worker has closed its cards and signed off the run. */
  readonly finished = new Promise<void>((resolve) => (this.#resolveFinished = resolve));

  /** Joins run `runId`: refuses (QueueRunError, ConfigError, AgentLoadError) a run this worker cannot play. */
  static async join(redis: Redis, runId: string, identity: WorkerIdentity, settings: WorkerSettings): Promise<WorkerSession> {
    const keys = runKeys(runId);
    const meta = parseRunMeta(await redis.get(keys.meta), runId);
    const experiment = await experimentOfRun(meta);
    const target = await openWorkerTarget(experiment, meta, redis, settings.concurrency);
    const session = new WorkerSession({ redis, keys, meta, experiment, target, identity, settings });
    await session.#start();
    return session;
  }

  private constructor(parts: SessionParts) {
    this.#parts = parts;
    this.runId = parts.meta.run_id;
    const { experiment, target, redis, keys, identity, settings, meta } = parts;
    this.#agents = new Map(experiment.agents.map((agent) => [agent.label, agent]));
    this.#cards = new WorkerCards({
      transport: target.transport,
      settings: experiment.config.scorecard,
      redis,
      keys,
      worker: identity.id,
      target: target.description,
      logger: settings.logger,
    });
    this.#stop = new RunStop(undefined, undefined, settings.logger);
    this.#runDir = settings.recordingsDir === undefined ? undefined : join(settings.recordingsDir, meta.run_folder);
    this.#setup = this.#episodeSetup();
  }

  /** What this worker's episodes share (episode/episodeSetup.ts): the run folder, the stop, the run's numbering. */
  #episodeSetup(): EpisodeSetupBuilder {
    const { experiment, target, meta, settings } = this.#parts;
    const { config } = experiment;
    const competition = config.scorecard.competition_mode;
    return new EpisodeSetupBuilder({
      config: episodeConfigOf(experiment),
      runDir: this.#runDir,
      transport: target.transport,
      stop: this.#stop,
      attempt: meta.attempt ?? 1,
      notContinuable:
        meta.target.kind === 'reference' ? 'its session lived in the in-process service of the worker that played it, which died with that worker' : undefined,
      nextRunSequence: () => this.#nextSequence(),
      // Level baselines of games whose descriptor has none, read once per game from this worker's card.
      baselines: new GameBaselines(target.transport, !competition, baselineNotices(settings.logger)),
      logger: settings.logger,
    });
  }

  async #start(): Promise<void> {
    const { redis, keys, identity, settings } = this.#parts;
    const recordings = this.#setup.recordings;
    if (recordings !== undefined) mkdirSync(recordings.dir, { recursive: true });
    await redis.hset(
      keys.workers,
      identity.id,
      JSON.stringify({ hostname: identity.hostname, pid: identity.pid, concurrency: settings.concurrency, joined_at: new Date().toISOString() }),
    );
    await redis.set(keys.alive(identity.id), '1', 'PX', ALIVE_TTL_MS);
    this.#heartbeat = setInterval(() => void this.#beat(), HEARTBEAT_MS);
    this.#bull = new Worker(keys.queue, (job) => this.#play(job), {
      connection: { url: settings.address.url, maxRetriesPerRequest: null },
      prefix: BULL_PREFIX,
      concurrency: settings.concurrency,
      lockDuration: settings.stallMs,
      stalledInterval: Math.max(250, Math.floor(settings.stallMs / 2)),
      maxStalledCount: MAX_STALLS,
    });
    const removeCheckpoint = (job: Job | undefined) => {
      if (job?.id === undefined) return;
      this.#finishedCheckpoints.get(job.id)?.remove();
      this.#finishedCheckpoints.delete(job.id);
    };
    this.#bull.on('completed', removeCheckpoint);
    this.#bull.on('failed', removeCheckpoint);
    this.#bull.on('error', (error) => settings.logger.error({ run: this.runId, error: error.message }, 'queue connection failed'));
    settings.logger.info({ run: this.runId, name: this.#parts.meta.name, target: this.#parts.target.description }, 'joined the run');
  }

  /** Alive again; and the run's state: stopping stops this worker's episodes, ended ends its part. */
  async #beat(): Promise<void> {
    const { redis, keys, identity, settings } = this.#parts;
    try {
      await redis.set(keys.alive(identity.id), '1', 'PX', ALIVE_TTL_MS);
      const state = await readRunState(redis, keys);
      if (state.phase === 'stopping') this.#stop.stop(state.outcome);
      if (state.phase === 'ended') void this.leave();
    } catch (error) {
      settings.logger.warn({ run: this.runId, error: (error as Error).message }, 'heartbeat failed; trying again');
    }
  }

  async #play(job: Job): Promise<EpisodeRecord> {
    const { redis, keys, identity } = this.#parts;
    const data = parseEpisodeJob(job.data, job.id!);
    const agent = this.#agents.get(data.agent);
    if (agent === undefined) throw new QueueRunError(`job ${job.id} is for agent "${data.agent}", which this worker's experiment does not have`);
    const spec: EpisodeSpec = { agent, game: data.game, index: data.index, seed: data.seed };
    const earlier = await earlierAttempts(redis, keys, job.id!);
    const start =
      earlier.length > 0 || data.continue_on !== undefined
        ? await this.#stalledStart(spec, data.continue_on)
        : data.restart_reason === undefined
          ? undefined
          : { restartReason: data.restart_reason };
    let cardId: string;
    try {
      cardId = start !== undefined && 'cardId' in start ? start.cardId : await this.#cards.cardFor(agent.label);
    } catch (error) {
      return failedBeforeStart(spec, error);
    }
    await noteAttempt(redis, keys, job.id!, earlier, { worker: identity.id, card_id: cardId, started_at: new Date().toISOString() });
    const { env, cutByRunStop } = this.#setup.episode({
      cardId,
      ...(start === undefined ? {} : 'cardId' in start ? { continueFrom: start.continueFrom } : { restartReason: start.restartReason }),
    });
    const played = await playEpisode(spec, env);
    const record = await played.finished;
    // Removed once the job is complete: a worker that dies before that leaves it for the next one.
    this.#finishedCheckpoints.set(job.id!, played.checkpoints);
    if (cutByRunStop()) record.cut_by_run_stop = true;
    const lost =
      record.continued !== undefined && start !== undefined && 'cardId' in start ? lostBeforeSession(earlier, start.continueFrom.started_at) : earlier;
    if (lost.length > 0) record.lost_attempts = lost;
    return record;
  }

  /** How a job whose worker died (or a resume's episode in flight) goes on here: from its checkpoint, or over (logged either way). */
  async #stalledStart(spec: EpisodeSpec, takenOver: TakenOverCard | undefined): Promise<StalledStart> {
    const { redis, keys, target, settings } = this.#parts;
    const start = await stalledStart({ redis, keys, transport: target.transport, runDir: this.#runDir }, spec, takenOver);
    const episode = { run: this.runId, agent: spec.agent.label, game: spec.game.game_id, episode: spec.index };
    if ('cardId' in start) {
      const { card_id, step } = start.continueFrom;
      settings.logger.info({ ...episode, card_id, step }, 'continuing an episode from its checkpoint');
    } else settings.logger.warn({ ...episode, reason: start.restartReason }, 'an episode that was in flight starts over from a new RESET');
    return start;
  }

  /**
   * Runs are numbered in the order they began across the run. Workers share no counter, so a run's
   * number is the microsecond it began (kept increasing on this worker): runs of different workers
   * order by their start, and this worker's exactly as its card saw them.
   */
  #nextSequence(): number {
    this.#lastSequence = Math.max(this.#lastSequence + 1, Date.now() * 1000);
    return this.#lastSequence;
  }

  /** Finishes this worker's jobs, closes its cards, reports its counts and signs off; once, however often asked. */
  leave(): Promise<void> {
    this.#finishing ??= this.#finish().finally(() => this.#resolveFinished());
    return this.#finishing;
  }

  async #finish(): Promise<void> {
    const { redis, keys, identity, target, settings } = this.#parts;
    clearInterval(this.#heartbeat);
    await this.#bull?.close();
    await this.#cards.closeAll();
    await closeAgents(this.#parts.experiment.agents, (sentence) => settings.logger.warn(sentence));
    await redis.hset(keys.stats, identity.id, JSON.stringify(target.transport.stats()));
    await redis.hdel(keys.workers, identity.id);
    await redis.del(keys.alive(identity.id));
    this.#stop.dispose();
    await target.close().catch((error: unknown) => settings.logger.warn({ error: (error as Error).message }, 'closing the target failed'));
    settings.logger.info({ run: this.runId }, 'left the run');
  }
}

/** The record of an episode that could not start (its card would not open): an error, like any failed episode. */
function failedBeforeStart(spec: EpisodeSpec, error: unknown): EpisodeRecord {
  const record = startedRecord(spec.agent.label, spec.game, spec.index, spec.seed, '', Date.now());
  record.error = describeError(error);
  return record;
}
