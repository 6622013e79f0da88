/**
 * The target as a worker sees it: an in-process reference service of its own (unseeded, so no two
 * workers hand out the same card ids and guids; with the experiment's games_dir, its official games on
 * this worker's own game hosts), or the service URL the run plays on, with the run's request budget
 * shared through Redis.
 */
import type { Redis } from 'ioredis';
import type { Transport } from '../../client/transport.ts';
import type { Experiment } from '../../runner/config/loader.ts';
import { httpOptions, LOCAL_KEY, openTargetGames, referenceTransport } from '../../runner/targets.ts';
import type { RunMeta } from './runMeta.ts';
import { sharedRateLimiter } from './sharedRateLimiter.ts';

export interface WorkerTransport {
  readonly transport: Transport;
  readonly description: string;
  /** Closes the transport, and the game hosts of official games. */
  close(): Promise<void>;
}

/** `concurrency`: this worker's episodes in flight, one connection each (the experiment's concurrency is the coordinator's). */
export async function openWorkerTarget(experiment: Experiment, meta: RunMeta, redis: Redis, concurrency: number): Promise<WorkerTransport> {
  if (meta.target.kind === 'reference') return ownReference(experiment);
  const { target: configTarget } = experiment.config;
  const apiKey = meta.target.api_key_from_config && typeof configTarget === 'object' && 'url' in configTarget ? configTarget.api_key : LOCAL_KEY;
  const { HttpTransport } = await import('../../client/httpTransport.ts');
  const origin = new URL(meta.target.url).origin;
  const limit = meta.rate_limit === null ? undefined : { requests: meta.rate_limit.requests, intervalMs: meta.rate_limit.interval_ms };
  const transport = new HttpTransport({
    baseUrl: meta.target.url,
    apiKey,
    ...httpOptions(experiment.config),
    connections: Math.max(1, Math.min(concurrency, 64)),
    ...(limit === undefined ? { rateLimit: false as const } : { sharedLimiter: sharedRateLimiter(redis, origin, apiKey, limit) }),
  });
  return { transport, description: transport.target, close: () => transport.close() };
}

async function ownReference(experiment: Experiment): Promise<WorkerTransport> {
  const games = await openTargetGames(experiment.config);
  const transport = referenceTransport(undefined, games.games);
  const description = games.games === undefined ? 'in-process' : `in-process, ${games.games.length} official game(s) of ${experiment.config.games_dir}`;
  const close = async () => {
    await transport.close();
    games.close();
  };
  return { transport, description, close };
}
