/**
 * One request budget for every worker of a run: the hosted service allows HOSTED_RATE_LIMIT_PER_MINUTE
 * requests a minute per key however many machines send them. rate-limiter-flexible counts requests in
 * Redis; a request that finds the budget spent waits for the next window and tries again.
 *
 * Its windows are fixed and whole seconds long, so two windows' worth can pass back to back at a window
 * boundary. The service's own limit is a bucket that holds a minute's allowance, so short windows are
 * safe: with P requests per D-second window the most ever sent in any stretch of T seconds is
 * P·(T/D + 2), under the bucket's allowance + rate·T whenever 2P is at most a minute's allowance. The
 * window is therefore the shortest whole number of seconds whose share of the budget is a whole
 * number of requests (1 s and 10 requests for the hosted 600 a minute).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { OriginRateLimiter, RateLimit } from '../../client/http/originRateLimiter.ts';
import { RATE_PREFIX } from './runKeys.ts';

export interface SharedWindow {
  readonly seconds: number;
  readonly requests: number;
}

/** A window share at least this close to the budget is taken as soon as it is found. */
const GOOD_ENOUGH = 0.95;

/** The fixed window that uses the most of `limit` (see above), preferring short ones. */
export function sharedWindow(limit: RateLimit): SharedWindow {
  const longest = Math.max(1, Math.floor(limit.intervalMs / 1000));
  let best: SharedWindow = { seconds: 1, requests: Math.max(1, Math.floor((limit.requests * 1000) / limit.intervalMs)) };
  let bestUse = 0;
  for (let seconds = 1; seconds <= longest; seconds++) {
    const requests = Math.floor((limit.requests * seconds * 1000) / limit.intervalMs);
    if (requests < 1) continue;
    const use = (requests * limit.intervalMs) / (limit.requests * seconds * 1000);
    if (use > bestUse) {
      best = { seconds, requests };
      bestUse = use;
    }
    if (use >= GOOD_ENOUGH) break;
  }
  return best;
}

/**
 * The limiter every worker of a run takes its requests' slots from: one Redis counter per origin and
 * API key (the key only as a hash), so runs sharing a key share its budget too.
 */
export function sharedRateLimiter(redis: Redis, origin: string, apiKey: string, limit: RateLimit): OriginRateLimiter {
  const window = sharedWindow(limit);
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: RATE_PREFIX, points: window.requests, duration: window.seconds });
  const key = `${origin}|${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
  return {
    limit: { ...limit },
    acquire: async () => {
      for (;;) {
        try {
          await limiter.consume(key, 1);
          return;
        } catch (refusal) {
          // A refusal is a RateLimiterRes (wait that long); anything else is Redis failing, and goes on.
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          await sleep(Math.max(1, refusal.msBeforeNext));
        }
      }
    },
  };
}
