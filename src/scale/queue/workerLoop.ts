/**
 * `arcbench worker`: a member of the pool. It waits for a queued run, joins the oldest one still
 * running, plays its episodes until the run ends, and looks for the next (or exits, with `once`). A
 * run it cannot play (an agent plugin missing in this checkout, a variable unset here) is refused
 * once, and the reason goes to the coordinator, which tells the user.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { isArcbenchError } from '../../errors.ts';
import { connectRedis } from './connectRedis.ts';
import { ACTIVE_RUNS, runKeys } from './runKeys.ts';
import { readRunState } from './runState.ts';
import { type WorkerIdentity, WorkerSession, type WorkerSettings } from './workerSession.ts';

/** How often an idle worker looks for a run. */
const POLL_MS = 500;

export interface WorkerLoopOptions extends WorkerSettings {
  /** Exit after the first run this worker joined has ended. */
  readonly once: boolean;
  /** Abort to leave: the current run's jobs finish, cards close, then the loop returns. */
  readonly signal: AbortSignal;
}

/** `host.pid.random`: unique, readable, and free of the `:` Redis keys are joined with. */
function workerIdentity(): WorkerIdentity {
  const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '_');
  return { id: `${host}.${process.pid}.${randomBytes(3).toString('hex')}`, hostname: hostname(), pid: process.pid };
}

export async function serveRuns(options: WorkerLoopOptions): Promise<void> {
  const { logger, signal } = options;
  const redis = await connectRedis(options.address);
  const identity = workerIdentity();
  const refused = new Set<string>();
  logger.info({ worker: identity.id, queue: options.address.display, concurrency: options.concurrency }, 'worker waiting for runs');
  try {
    while (!signal.aborted) {
      const runId = await nextRun(redis, refused);
      if (runId === undefined) {
        await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
        continue;
      }
      const session = await joinOrRefuse(redis, runId, identity, options, refused);
      if (session === undefined) continue;
      const leave = () => void session.leave();
      signal.addEventListener('abort', leave, { once: true });
      await session.finished;
      signal.removeEventListener('abort', leave);
      if (options.once) break;
    }
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

/** The oldest run still running that this worker has not refused. */
async function nextRun(redis: Redis, refused: ReadonlySet<string>): Promise<string | undefined> {
  for (const runId of await redis.zrange(ACTIVE_RUNS, 0, -1)) {
    if (refused.has(runId)) continue;
    if ((await readRunState(redis, runKeys(runId))).phase === 'running') return runId;
  }
  return undefined;
}

async function joinOrRefuse(
  redis: Redis,
  runId: string,
  identity: WorkerIdentity,
  options: WorkerLoopOptions,
  refused: Set<string>,
): Promise<WorkerSession | undefined> {
  try {
    return await WorkerSession.join(redis, runId, identity, options);
  } catch (error) {
    // Our own errors are sentences about this run (config, plugin, layout); anything else is a bug and goes on.
    if (!isArcbenchError(error)) throw error;
    refused.add(runId);
    options.logger.error({ run: runId, error: error.message }, 'cannot play this run; waiting for another');
    await redis.hset(runKeys(runId).refusals, identity.id, error.message);
    return undefined;
  }
}
