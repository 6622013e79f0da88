/**
 * The 429 answers: a per-key rate limit (docs/protocol.md §8, with our Retry-After), and an optional fault injector
 * that refuses every Nth request with `Retry-After: 0`, so clients' retry paths can be tested without
 * waiting. The health check is exempt from both: probes must not eat a key's allowance or be refused.
 */
import type { FastifyInstance } from 'fastify';
import { apiKeyOf } from './apiKey.ts';
import { sendError } from './errorMapping.ts';
import { HEALTHCHECK_PATH } from './routes.ts';
import { RateLimiter } from './rateLimiter.ts';

export interface RateLimitOptions {
  perMinute?: number;
  inject429Every?: number;
  now?: () => number;
}

export function installRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  const { perMinute, inject429Every } = options;
  if (inject429Every !== undefined && (!Number.isInteger(inject429Every) || inject429Every < 1))
    throw new RangeError(`inject429Every must be a positive integer, got ${inject429Every}`);
  const limiter = perMinute === undefined ? undefined : new RateLimiter(perMinute, options.now);
  if (limiter === undefined && inject429Every === undefined) return;
  let counted = 0;

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === HEALTHCHECK_PATH) return;
    if (inject429Every !== undefined && ++counted % inject429Every === 0) {
      return sendError(reply, 429, 'RATE_LIMIT_EXCEEDED', `injected 429 (every ${inject429Every}th request); retry now`, 0);
    }
    if (limiter === undefined) return;
    const decision = limiter.take(apiKeyOf(request) ?? '');
    if (!decision.allowed) {
      return sendError(
        reply,
        429,
        'RATE_LIMIT_EXCEEDED',
        `rate limit of ${perMinute} requests per minute for this key exceeded; retry in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
  });
}
