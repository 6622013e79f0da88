/**
 * The request budget of a run that is one of several on the same API key: the n shards of a matrix
 * each take 1/n of it, and a worker pool shares it whole through Redis. The hosted service counts a
 * key's requests however many machines send them.
 */
import { normaliseBaseUrl } from '../client/http/baseUrl.ts';
import { defaultRateLimit, type RateLimit } from '../client/http/originRateLimiter.ts';
import type { ExperimentConfig } from './config/schema.ts';

/** The budget an experiment plays with against `baseUrl`: its `rate_limit`, or the default for that URL; false: none. */
export function rateBudget(config: ExperimentConfig, baseUrl: string): RateLimit | false {
  if (config.rate_limit === false) return false;
  if (config.rate_limit !== undefined) return { requests: config.rate_limit.requests, intervalMs: config.rate_limit.interval_ms };
  return defaultRateLimit(normaliseBaseUrl(baseUrl).loopback);
}

/**
 * One of `parts` equal shares of `limit`. Each share keeps the interval (so no share bursts more than
 * its part in any interval), down to one request per a longer interval when the parts outnumber the
 * requests.
 */
export function shareOfBudget(limit: RateLimit, parts: number): RateLimit {
  if (parts <= 1) return limit;
  const requests = Math.floor(limit.requests / parts);
  if (requests >= 1) return { requests, intervalMs: limit.intervalMs };
  return { requests: 1, intervalMs: Math.ceil((limit.intervalMs * parts) / limit.requests) };
}
