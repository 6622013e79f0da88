/** The pure pieces of HttpTransport: base URL normalisation and the retry policy's arithmetic. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl } from '../src/client/http/baseUrl.ts';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs } from '../src/client/http/retryPolicy.ts';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://three.arcprize.org', 'https://three.arcprize.org', ''],
    ['https://three.arcprize.org/', 'https://three.arcprize.org', ''],
    ['https://three.arcprize.org///', 'https://three.arcprize.org', ''],
    ['https://three.arcprize.org/api', 'https://three.arcprize.org', ''],
    ['https://three.arcprize.org/api/', 'https://three.arcprize.org', ''],
    ['http://127.0.0.1:8001/arc//', 'http://127.0.0.1:8001', '/arc'],
    ['http://127.0.0.1:8001//arc//api', 'http://127.0.0.1:8001', '/arc'],
  ])('%s → origin %s, prefix "%s"', (input, origin, pathPrefix) => {
    const base = normaliseBaseUrl(input);
    expect(base.origin).toBe(origin);
    expect(base.pathPrefix).toBe(pathPrefix);
    expect(`${base.display}/api/games`).not.toContain('//api');
  });

  it('knows loopback from remote, for the default rate limit', () => {
    expect(normaliseBaseUrl('http://localhost:3000').loopback).toBe(true);
    expect(normaliseBaseUrl('http://127.0.0.1:3000').loopback).toBe(true);
    expect(normaliseBaseUrl('http://[::1]:3000').loopback).toBe(true);
    expect(normaliseBaseUrl('https://three.arcprize.org').loopback).toBe(false);
  });

  it('rejects what is not a service root, saying what to give', () => {
    expect(() => normaliseBaseUrl('three.arcprize.org')).toThrow(/not a URL/);
    expect(() => normaliseBaseUrl('ftp://example.org')).toThrow(/http/);
    expect(() => normaliseBaseUrl('https://example.org/?key=1')).toThrow(/query/);
    expect(() => normaliseBaseUrl('https://user:secret@example.org')).toThrow(/apiKey/);
  });
});

describe('retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('waits within full jitter, never less than Retry-After, never past the bounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 70_000 }),
        fc.option(fc.integer({ min: 0, max: 70_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (retry, waited, retryAfter, r) => {
          const policy = DEFAULT_RETRY_POLICY;
          const delay = retryDelayMs(policy, retry, waited, retryAfter, () => r);
          if (retry >= policy.maxRetries) {
            expect(delay).toBeUndefined();
            return;
          }
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
          if (delay === undefined) {
            expect(waited + Math.max(Math.floor(r * ceiling), retryAfter ?? 0)).toBeGreaterThan(policy.maxTotalWaitMs);
            return;
          }
          expect(delay).toBeGreaterThanOrEqual(retryAfter ?? 0);
          expect(delay).toBeLessThanOrEqual(Math.max(ceiling, retryAfter ?? 0));
          expect(waited + delay).toBeLessThanOrEqual(policy.maxTotalWaitMs);
        },
      ),
    );
  });
});
