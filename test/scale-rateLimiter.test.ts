// The request budget workers share through Redis: the window it picks for a budget, and three
// limiters on three connections (as three workers would hold) that together take no more than the
// budget and nearly all of it.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedRateLimiter, sharedWindow } from '../src/scale/queue/sharedRateLimiter.ts';
import { type RedisServer, startRedisServer } from './support/redisServer.ts';

describe('the shared window', () => {
  it.each([
    [
      { requests: 600, intervalMs: 60_000 },
      { seconds: 1, requests: 10 },
    ],
    [
      { requests: 100, intervalMs: 60_000 },
      { seconds: 3, requests: 5 },
    ],
    [
      { requests: 1000, intervalMs: 60_000 },
      { seconds: 1, requests: 16 },
    ],
    [
      { requests: 30, intervalMs: 1000 },
      { seconds: 1, requests: 30 },
    ],
    [
      { requests: 1, intervalMs: 60_000 },
      { seconds: 60, requests: 1 },
    ],
  ])('for %j is %j: a whole number of requests in whole seconds, near the budget, short', (limit, window) => {
    expect(sharedWindow(limit)).toEqual(window);
  });

  it('never lets a window exceed the budget’s own rate', () => {
    for (let requests = 1; requests <= 2000; requests += 7) {
      for (const intervalMs of [1000, 10_000, 60_000]) {
        const { seconds, requests: share } = sharedWindow({ requests, intervalMs });
        expect(share / seconds).toBeLessThanOrEqual((requests * 1000) / intervalMs + 1e-9);
      }
    }
  });
});

describe('three workers on one budget', () => {
  let redis: RedisServer;
  const connections: Redis[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await redis?.stop();
  });

  it('take together at most the budget, and at least 90% of it', async () => {
    const limit = { requests: 1200, intervalMs: 60_000 }; // 20 a second, windows of 1 s
    const limiters = [0, 1, 2].map(() => {
      const connection = new Redis(redis.url);
      connections.push(connection);
      return sharedRateLimiter(connection, 'http://127.0.0.1:1', 'key', limit);
    });
    const granted: number[] = [];
    const started = Date.now();
    const until = started + 3000;
    // Four callers per limiter, each asking again the moment it is let through: far more demand than budget.
    await Promise.all(
      limiters.flatMap((limiter) =>
        [0, 1, 2, 3].map(async () => {
          while (Date.now() < until) {
            await limiter.acquire();
            if (Date.now() < until) granted.push(Date.now());
          }
        }),
      ),
    );
    const seconds = (until - started) / 1000;
    // Fixed 1 s windows: at most one window's worth over the stretch's two partial windows.
    expect(granted.length).toBeLessThanOrEqual(20 * seconds + 20);
    expect(granted.length).toBeGreaterThanOrEqual(0.9 * 20 * seconds);
  });
});
