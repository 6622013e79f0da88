/**
 * Plays a plan through the worker pool instead of in this process: the coordinator's side of
 * `arcbench run <config> --queue redis://…`. It publishes the run, enqueues one BullMQ job per episode
 * (job id = episode key, so no episode is enqueued twice), hands each record that comes back to the
 * recorder exactly as a local run's scheduler does, and mirrors the workers' cards into run.json. On
 * an interrupt or the run's wall time, queued episodes are dropped and the workers' episodes stop at
 * their next step. At the end workers close their cards and sign off; the cards of workers that died
 * are closed here when the service still holds them (a URL), or listed as lost. A resume's episodes in
 * flight go to the workers with the card it took over (they continue them from their checkpoints) or
 * with why they start over; the cards taken over are closed here too, once every worker signed off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { TransportStats } from '../../client/transport.ts';
import type { ScheduledRun, ScheduleOutcome, Scheduler } from '../../runner/scheduler.ts';
import { type ClosedCard, closeCards } from '../../runner/scorecards.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import { type CardMirror as Mirror, CardMirror } from './cardMirror.ts';
import { episodeJob, type ResumedStart } from './episodeJob.ts';
import { keyOfSpec } from '../../runfolder/episodeKey.ts';
import { newRunId, publishRun, retireRun, runMetaOf } from './publishRun.ts';
import { connectRedis } from './connectRedis.ts';
import type { RedisAddress } from './redisAddress.ts';
import { ResultCollector } from './resultCollector.ts';
import { BULL_PREFIX, type RunKeys, runKeys } from './runKeys.ts';
import { writeRunState } from './runState.ts';
import { RunSpend } from '../../runner/runSpend.ts';
import { settleDeadWorkersCards } from './deadWorkers.ts';

/** How often the coordinator looks at cards, workers and refusals. */
const TICK_MS = 500;
/** Without any worker this long, the coordinator says how to start one. */
const NO_WORKER_HINT_MS = 10_000;
/** Workers get this long after the run ends to close their cards and sign off. */
const SIGN_OFF_MS = 120_000;
const ENQUEUE_BATCH = 500;

interface QueueParts {
  readonly run: ScheduledRun;
  readonly address: RedisAddress;
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly runId: string;
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly collector: ResultCollector;
  readonly mirror: Mirror;
  /** The run's dollar budget, counted as episodes come back: once spent, queued episodes are dropped. */
  readonly spend: RunSpend;
}

/** The scheduler `runExperiment` takes for `--queue`: the worker pool meeting in this Redis plays the episodes. */
export function queueScheduler(address: RedisAddress): Scheduler {
  return Object.assign((run: ScheduledRun) => scheduleOnQueue(run, address), { continuesSessions: true });
}

async function scheduleOnQueue(run: ScheduledRun, address: RedisAddress): Promise<ScheduleOutcome> {
  let redis: Redis;
  try {
    redis = await connectRedis(address);
  } catch (error) {
    run.stop.dispose();
    run.recorder.close();
    await run.target.close();
    throw error;
  }
  const parts = queueParts(run, address, redis);
  let published = false;
  let failure: unknown;
  try {
    await parts.events.waitUntilReady();
    const meta = runMetaOf({
      ...parts,
      experiment: run.experiment,
      target: run.target,
      fingerprint: run.fingerprint,
      games: run.plan.games,
      overrides: run.overrides,
      runDir: run.runDir,
      attempt: run.attempt,
    });
    await publishRun(redis, parts.keys, meta);
    published = true;
    await enqueue(parts);
    run.logger.info(
      { run: parts.runId, queue: address.display, episodes: run.plan.episodes.length },
      `episodes queued; workers play them (arcbench worker --queue ${address.display})`,
    );
    await watchUntilPlayed(parts);
  } catch (error) {
    failure = error;
  } finally {
    run.stop.dispose();
    run.recorder.close();
  }
  // Whatever happened, a published run is ended for its workers, and every connection closes.
  const outcome = await finish(parts, published);
  if (failure !== undefined) throw failure;
  return outcome;
}

function queueParts(run: ScheduledRun, address: RedisAddress, redis: Redis): QueueParts {
  const runId = newRunId(run.experiment.config.name);
  const keys = runKeys(runId);
  const connection = { url: address.url, maxRetriesPerRequest: null };
  const parts: QueueParts = {
    run,
    address,
    redis,
    keys,
    runId,
    queue: new Queue(keys.queue, { connection, prefix: BULL_PREFIX, streams: { events: { maxLen: Math.max(10_000, 4 * run.plan.episodes.length) } } }),
    // From the stream's start: no result is missed between enqueueing and listening.
    events: new QueueEvents(keys.queue, { connection, prefix: BULL_PREFIX, lastEventId: '0-0' }),
    collector: new ResultCollector(
      run.plan.episodes,
      (record) => {
        run.recorder.add(record);
        parts.spend.addDollars(record.usage.cost_usd);
      },
      run.logger,
    ),
    mirror: new CardMirror(redis, keys, run.cardEvents),
    spend: new RunSpend(run.experiment.config.budgets.max_run_cost_usd, run.logger, () => void parts.queue.drain(true).catch(() => undefined)),
  };
  parts.events.on('completed', ({ jobId, returnvalue }) => parts.collector.completed(jobId, returnvalue));
  parts.events.on('failed', ({ jobId, failedReason }) => parts.collector.failed(jobId, failedReason));
  return parts;
}

async function enqueue({ queue, run }: QueueParts): Promise<void> {
  const jobs = run.plan.episodes.map((spec) => episodeJob(spec, resumedStart(run, spec)));
  for (let i = 0; i < jobs.length; i += ENQUEUE_BATCH) await queue.addBulk(jobs.slice(i, i + ENQUEUE_BATCH));
}

/** A resume's word on an episode: continue it on the card taken over (the worker reads its checkpoint), or why it starts over. */
function resumedStart(run: ScheduledRun, spec: EpisodeSpec): ResumedStart | undefined {
  const key = keyOfSpec(spec);
  const card = run.continuations?.continueFrom.has(key) ? run.continuations.cards.get(spec.agent.label) : undefined;
  if (card !== undefined) return { continueOn: { card_id: card.card_id, affinity: [...card.affinity] } };
  const reason = run.continuations?.restartReasons.get(key);
  return reason === undefined ? undefined : { restartReason: reason };
}

/**
 * Until every episode has its record, or, after a stop, until no episode is queued or in flight. Each
 * tick mirrors cards, reports refusals, hints at starting a worker, and reads results an event missed.
 */
async function watchUntilPlayed(parts: QueueParts): Promise<void> {
  const { run, queue, collector } = parts;
  const started = Date.now();
  const told = new Set<string>();
  let hinted = false;
  let stopping = false;
  let behind = 0;
  while (collector.remaining > 0) {
    await Promise.race([collector.done, sleep(TICK_MS)]);
    await parts.mirror.sync();
    await reportRefusals(parts, told);
    if (!hinted && Date.now() - started > NO_WORKER_HINT_MS && (await parts.redis.hlen(parts.keys.workers)) === 0) {
      hinted = true;
      run.logger.warn({ run: parts.runId }, `no worker has joined yet: start some with \`arcbench worker --queue ${parts.address.display}\``);
    }
    if (run.stop.signal.aborted && !stopping) {
      stopping = true;
      await writeRunState(parts.redis, parts.keys, { phase: 'stopping', outcome: run.stop.reason });
      await queue.drain(true);
      run.logger.warn({ run: parts.runId, reason: run.stop.reason }, 'run stopping: queued episodes dropped; workers stop theirs at the next step');
    }
    const counts = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized');
    const finished = (counts.completed ?? 0) + (counts.failed ?? 0);
    // An event may be missed (a dropped connection): read results from the jobs when counts disagree twice running.
    behind = finished > run.plan.episodes.length - collector.remaining ? behind + 1 : 0;
    if (behind >= 2) await collector.reconcile(queue);
    const unplayed = (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0);
    if ((stopping || parts.spend.spent) && unplayed === 0) {
      await collector.reconcile(queue);
      return;
    }
  }
}

async function reportRefusals(parts: QueueParts, told: Set<string>): Promise<void> {
  const refusals = await parts.redis.hgetall(parts.keys.refusals);
  for (const [worker, message] of Object.entries(refusals)) {
    if (told.has(worker)) continue;
    told.add(worker);
    parts.run.logger.error({ run: parts.runId, worker }, `a worker cannot play this run: ${message}`);
  }
}

/** Ends the run for the workers, waits for them to sign off, settles dead workers' cards, and cleans up. */
async function finish(parts: QueueParts, published: boolean): Promise<ScheduleOutcome> {
  const { run, redis, keys, queue, events, mirror } = parts;
  try {
    if (published) {
      await retireRun(redis, keys, parts.runId);
      await waitForSignOff(parts);
      await mirror.sync();
      await settleDeadWorkersCards(mirror.cards, parts.run, parts.runId);
    }
    const takenOver = await closeTakenOverCards(run);
    const stats = await workerStats(redis, keys, run.target.transport.stats());
    await queue.obliterate({ force: true }).catch((error: unknown) => run.logger.warn({ error: (error as Error).message }, 'removing the queue failed'));
    return {
      ...outcomeOf(mirror, stats, run.target.pageRoot, takenOver),
      costStopped: parts.spend.spent,
      queue: { redis: parts.address.display, run_id: parts.runId },
    };
  } finally {
    await events.close();
    await queue.close();
    await redis.quit().catch(() => redis.disconnect());
    await run.target.close().catch((error: unknown) => run.logger.warn({ error: (error as Error).message }, 'closing the target failed'));
  }
}

/** Until every worker that joined has signed off or stopped beating (dead), or SIGN_OFF_MS passed. */
async function waitForSignOff({ redis, keys, mirror, run, runId }: QueueParts): Promise<void> {
  const deadline = Date.now() + SIGN_OFF_MS;
  for (;;) {
    await mirror.sync();
    const workers = await redis.hkeys(keys.workers);
    const alive = await Promise.all(workers.map((worker) => redis.exists(keys.alive(worker))));
    if (!alive.some((n) => n > 0)) return;
    if (Date.now() > deadline) {
      run.logger.warn({ run: runId, workers }, 'workers did not sign off in time; their open cards are settled here');
      return;
    }
    await sleep(250);
  }
}

async function workerStats(redis: Redis, keys: RunKeys, own: TransportStats): Promise<TransportStats> {
  const total: TransportStats = {
    requests: own.requests,
    retries: { ...own.retries },
    unconfirmedOpens: own.unconfirmedOpens,
    missingFields: [...own.missingFields],
  };
  for (const text of Object.values(await redis.hgetall(keys.stats))) {
    const stats = JSON.parse(text) as Partial<TransportStats>;
    total.requests += stats.requests ?? 0;
    for (const [cause, n] of Object.entries(stats.retries ?? {})) total.retries[cause] = (total.retries[cause] ?? 0) + n;
    total.unconfirmedOpens += stats.unconfirmedOpens ?? 0;
    for (const field of stats.missingFields ?? []) if (!total.missingFields.includes(field)) total.missingFields.push(field);
  }
  return total;
}

/**
 * The cards a resume took over: workers continued episodes on them, and any worker may still play on
 * one until every worker has signed off, so the coordinator closes them, as the local scheduler does.
 */
async function closeTakenOverCards(run: ScheduledRun): Promise<{ cards: Map<string, string>; closed: Map<string, ClosedCard> }> {
  const cards = new Map<string, string>();
  for (const [label, card] of run.continuations?.cards ?? []) {
    run.target.transport.adoptAffinity?.(card.card_id, card.affinity);
    cards.set(label, card.card_id);
  }
  return { cards, closed: await closeCards(run.target.transport, cards, run.logger, run.cardEvents) };
}

/** The outcome as the local scheduler gives it: per agent its latest card (a worker's over one taken over), and how it closed. */
function outcomeOf(
  mirror: Mirror,
  stats: TransportStats,
  pageRoot: string | undefined,
  takenOver: { cards: Map<string, string>; closed: Map<string, ClosedCard> },
): Omit<ScheduleOutcome, 'costStopped'> {
  const cards = new Map(takenOver.cards);
  const closed = new Map(takenOver.closed);
  for (const card of mirror.cards) {
    cards.set(card.agent, card.card_id);
    closed.set(card.agent, { scorecard: card.scorecard, error: card.close_error });
  }
  return { cards, closed, stats, pageRoot };
}
