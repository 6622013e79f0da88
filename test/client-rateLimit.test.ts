/** The per-origin request budget: shared by every HttpTransport of the process that talks to one origin. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { startServer } from '../src/reference/server/index.ts';
import type { RunningServer } from '../src/reference/server/index.ts';

let running: RunningServer;
beforeAll(async () => {
  running = await startServer({ logger: false });
});
afterAll(async () => {
  await running.close();
});

describe('rate limit per origin', () => {
  it('spreads requests of two transports over one sliding window', async () => {
    const warnings: object[] = [];
    const logger = { warn: (fields: object) => warnings.push(fields), debug: () => {} };
    const limit = { requests: 5, intervalMs: 400 };
    const first = new HttpTransport({ baseUrl: running.url, apiKey: 'rate-key', rateLimit: limit, logger });
    // Same origin, another budget asked for: the first one stays in force, and the caller is told.
    const second = new HttpTransport({ baseUrl: `${running.url}/`, apiKey: 'rate-key', rateLimit: { requests: 1000, intervalMs: 400 }, logger });
    expect(warnings).toHaveLength(1);
    try {
      const started = performance.now();
      await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? first : second).listGames()));
      // 5 now, 5 after one window, 2 after two: at least two windows, however fast the server.
      expect(performance.now() - started).toBeGreaterThanOrEqual(2 * limit.intervalMs - 10);
      expect(first.stats().requests + second.stats().requests).toBe(12);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('puts no limit on loopback by default, and the hosted one on a remote URL', async () => {
    const local = new HttpTransport({ baseUrl: running.url.replace('127.0.0.1', 'localhost'), apiKey: 'rate-key' });
    // Constructing connects nowhere: this only reads the budget chosen for the origin.
    const remote = new HttpTransport({ baseUrl: 'https://arc-service.example/', apiKey: 'rate-key' });
    try {
      expect(local.rateLimit).toBe(false);
      expect(remote.rateLimit).toEqual({ requests: 600, intervalMs: 60_000 });
      await Promise.all(Array.from({ length: 20 }, () => local.listGames()));
      expect(local.stats()).toEqual({ requests: 20, retries: {}, unconfirmedOpens: 0, missingFields: [] });
    } finally {
      await Promise.all([local.close(), remote.close()]);
    }
  });
});
