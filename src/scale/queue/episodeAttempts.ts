/**
 * Which workers started an episode: each attempt is noted in the run's `attempts` hash before its
 * first RESET (or before it continues the session of an earlier one). A job that comes back after its
 * worker died (a stalled job) finds the earlier attempts there: it continues the last one's session
 * from its checkpoint when it can (stalledEpisode.ts), and its record names the attempts whose
 * sessions were lost: their actions are on those workers' cards.
 */
import type { Redis } from 'ioredis';
import type { LostAttempt } from '../../runfolder/episodeRecord.ts';
import type { RunKeys } from './runKeys.ts';

/** The attempts noted for the job so far. */
export async function earlierAttempts(redis: Redis, keys: RunKeys, jobId: string): Promise<LostAttempt[]> {
  const earlier = await redis.hget(keys.attempts, jobId);
  return earlier === null ? [] : (JSON.parse(earlier) as LostAttempt[]);
}

/** Notes this attempt after `earlier`. One worker holds a job at a time, so read-then-write is safe. */
export async function noteAttempt(redis: Redis, keys: RunKeys, jobId: string, earlier: readonly LostAttempt[], attempt: LostAttempt): Promise<void> {
  await redis.hset(keys.attempts, jobId, JSON.stringify([...earlier, attempt]));
}
