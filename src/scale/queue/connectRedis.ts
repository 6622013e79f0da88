/**
 * Connecting to the Redis where the worker pool meets, with a sentence when it cannot be reached.
 */
import { Redis } from 'ioredis';
import { ArcbenchError } from '../../errors.ts';
import type { RedisAddress } from './redisAddress.ts';

/** Redis could not be reached (or answered with an error) at connect time. */
export class QueueUnreachableError extends ArcbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('QUEUE_UNREACHABLE', message, options);
  }
}

/**
 * A connection for our own commands, connected before it is returned: a wrong address fails here with
 * a sentence, not later inside a queue. Once connected, ioredis reconnects by itself after a drop.
 */
export async function connectRedis(address: RedisAddress): Promise<Redis> {
  const redis = new Redis(address.url, { lazyConnect: true, connectTimeout: 10_000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new QueueUnreachableError(
      `cannot reach Redis at ${address.display} (${(error as Error).message}); is redis-server running there, and is --queue right?`,
      { cause: error },
    );
  }
  return redis;
}
