/**
 * Which workers started an episode: each attempt is noted in the run's `attempts` hash before its
 * first RESET. A job that comes back after its worker died (a stalled job) finds the earlier attempts
 * there, and its record names them: their sessions' actions are on those workers' cards.
 */
import type { Redis } from 'ioredis';
import type { LostAttempt } from '../../runner/episode/episodeRecord.ts';
import type { RunKeys } from './runKeys.ts';

/** Notes this attempt and returns the earlier ones. One worker holds a job at a time, so read-then-write is safe. */
export async function noteAttempt(redis: Redis, keys: RunKeys, jobId: string, attempt: LostAttempt): Promise<LostAttempt[]> {
  const earlier = await redis.hget(keys.attempts, jobId);
  const attempts = earlier === null ? [] : (JSON.parse(earlier) as LostAttempt[]);
  await redis.hset(keys.attempts, jobId, JSON.stringify([...attempts, attempt]));
  return attempts;
}
