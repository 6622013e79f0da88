/**
 * One request budget per origin for the whole process (docs/protocol.md §8: the hosted service allows
 * HOSTED_RATE_LIMIT_PER_MINUTE requests a minute per key, and every transport of a run talks to the same origin). A p-queue in strict
 * (sliding-window) mode: no burst at a window boundary can exceed the budget. Each attempt, retries
 * included, takes one slot, since the service counts every request it receives.
 */
import PQueue from 'p-queue';
import { HOSTED_RATE_LIMIT_PER_MINUTE } from '../../protocol/index.ts';

export interface RateLimit {
  requests: number;
  intervalMs: number;
}

/** Hosted service default. */
export const HOSTED_RATE_LIMIT: RateLimit = { requests: HOSTED_RATE_LIMIT_PER_MINUTE, intervalMs: 60_000 };

/** The budget when none is asked for: the hosted service's for a remote URL, none on loopback (our own servers). */
export function defaultRateLimit(loopback: boolean): RateLimit | false {
  return loopback ? false : HOSTED_RATE_LIMIT;
}

export interface OriginRateLimiter {
  readonly limit: RateLimit;
  /** Resolves when a request may be sent now; rejects (an AbortError) if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
}

const registry = new Map<string, OriginRateLimiter>();

/**
 * The limiter for `origin`, created with `limit` on first use. A later transport asking for another
 * limit gets the existing one (a process must not exceed the first budget it was given), and `onMismatch`
 * lets the caller say so.
 */
export function rateLimiterForOrigin(origin: string, limit: RateLimit, onMismatch?: (existing: RateLimit) => void): OriginRateLimiter {
  const existing = registry.get(origin);
  if (existing !== undefined) {
    if (existing.limit.requests !== limit.requests || existing.limit.intervalMs !== limit.intervalMs) onMismatch?.(existing.limit);
    return existing;
  }
  if (!(limit.requests >= 1) || !(limit.intervalMs > 0) || !Number.isFinite(limit.intervalMs)) {
    throw new RangeError(`rateLimit: expected requests ≥ 1 and a finite intervalMs > 0, got ${JSON.stringify(limit)}`);
  }
  const queue = new PQueue({ intervalCap: Math.floor(limit.requests), interval: limit.intervalMs, strict: true });
  const limiter: OriginRateLimiter = {
    limit: { ...limit },
    acquire: async (signal) => {
      await queue.add(() => undefined, signal === undefined ? undefined : { signal });
    },
  };
  registry.set(origin, limiter);
  return limiter;
}
