/**
 * What may be retried, and how long to wait (docs/protocol.md §8).
 *
 * Safe to retry anything: a 429 (the service refused without acting) and a failure that proves the
 * request never left (connection refused, DNS failure, connect timeout). Retried only for requests that
 * are safe or idempotent enough (GET, open, close): 5xx answers, timeouts, a connection reset. An ACTION
 * or RESET that may have reached the service is never replayed: actions are not idempotent.
 *
 * Waits are exponential with full jitter (uniform in [0, min(cap, base·2^attempt)]), never shorter than
 * a Retry-After the service gave, and the sum of waits of one request is bounded.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Bound on the sum of waits of one request; a Retry-After beyond it ends the retries at once. */
  maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxTotalWaitMs: 60_000,
};

/** Retry causes as counted in `stats().retries`. */
export type RetryCause = '429' | 'connection_refused' | 'connect_timeout' | '5xx' | 'timeout' | 'connection_reset';

/** The wait before retry number `retry` (0-based), or undefined when the policy says stop. */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  waitedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retry >= policy.maxRetries) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = Math.floor(random() * ceiling);
  const delay = Math.max(jittered, retryAfterMs ?? 0);
  if (waitedMs + delay > policy.maxTotalWaitMs) return undefined;
  return delay;
}

/**
 * Retry-After as milliseconds from `now`: either delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
