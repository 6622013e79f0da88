/** The routing rule behind the AWSALB cookie, without HTTP: round robin, rotation, the grace rule. */
import { describe, expect, it } from 'vitest';
import { AffinityRouter, AFFINITY_DEFAULT_GRACE_MS, AFFINITY_GRACE_GENERATIONS, affinityCookieValues } from '../src/reference/server/affinityRouter.ts';

/** A short grace, so that a replayed snapshot goes stale within a test. */
const GRACE_MS = 60_000;

const cookie = (value: string) => `other=1; AWSALB=${value}`;

describe('AffinityRouter', () => {
  it('sends requests without a known cookie round robin, and a known cookie to its backend', () => {
    const router = new AffinityRouter(3);
    const first = router.resolve(undefined);
    const next = [router.resolve('AWSALB=unknown.0'), router.resolve('junk'), router.resolve(undefined)];
    expect([first, ...next].map((affinity) => affinity.backend)).toEqual([0, 1, 2, 0]);
    const value = router.respond(first);
    for (let i = 0; i < 5; i++) expect(router.resolve(cookie(router.respond(first))).backend).toBe(0);
    expect(router.resolve(cookie(value))).toBe(first);
  });

  it('rotates every K responses', () => {
    const router = new AffinityRouter(2, 2);
    const affinity = router.resolve(undefined);
    const values = Array.from({ length: 5 }, () => router.respond(affinity));
    expect(new Set(values).size).toBe(3);
    expect([values[1] === values[2], values[3] === values[4], values[0] === values[1]]).toEqual([true, true, false]);
  });

  it('routes values within AFFINITY_GRACE_GENERATIONS always, older ones only while recently superseded', () => {
    let now = 0;
    const router = new AffinityRouter(2, 1, () => now, GRACE_MS);
    const affinity = router.resolve(undefined);
    // With rotation on every response, values[i] is generation i + 1.
    const values = Array.from({ length: AFFINITY_GRACE_GENERATIONS + 10 }, () => router.respond(affinity));
    expect(router.resolve(cookie(values[0]!))).toBe(affinity); // old, but superseded just now
    now += GRACE_MS + 1000;
    expect(router.resolve(cookie(values[0]!))).not.toBe(affinity);
    expect(router.resolve(cookie(values[9]!))).toBe(affinity); // exactly AFFINITY_GRACE_GENERATIONS old
    expect(router.resolve(cookie(values[8]!))).not.toBe(affinity);
    const [id] = values[0]!.split('.');
    expect(router.resolve(cookie(`${id}.zzzz`))).not.toBe(affinity);
  });

  it('dates a generation by when the next one was issued, even after a long pause', () => {
    let now = 0;
    const router = new AffinityRouter(2, 1, () => now, GRACE_MS);
    const affinity = router.resolve(undefined);
    const before = router.respond(affinity); // generation 1 at t = 0
    now = 2 * GRACE_MS;
    const first = router.respond(affinity); // generation 2 at t = 2 × grace: 1 superseded just now
    for (let i = 0; i < AFFINITY_GRACE_GENERATIONS + 5; i++) router.respond(affinity);
    expect(router.resolve(cookie(before))).toBe(affinity);
    expect(router.resolve(cookie(first))).toBe(affinity);
    expect(router.resolve(`AWSALB=${before.replace(/\.1$/, '.0')}`)).not.toBe(affinity); // generation 0: superseded at t = 0
  });

  it('by default routes a value superseded hours ago, as the hosted balancer does, until a day has passed', () => {
    let now = 0;
    const router = new AffinityRouter(2, 1, () => now);
    const affinity = router.resolve(undefined);
    const atOpen = router.respond(affinity);
    // A long agent run: an answer every 2 s for 3 hours, the cookie rotating on each.
    for (let i = 0; i < 5400; i++) {
      now += 2000;
      router.respond(affinity);
    }
    expect(router.resolve(cookie(atOpen))).toBe(affinity);
    now += AFFINITY_DEFAULT_GRACE_MS;
    expect(router.resolve(cookie(atOpen))).not.toBe(affinity);
  });

  it('keeps a bounded number of rotation marks per affinity, however long the grace', () => {
    let now = 0;
    const router = new AffinityRouter(1, 1, () => now);
    const affinity = router.resolve(undefined);
    for (let i = 0; i < 100_000; i++) {
      now += 1000;
      router.respond(affinity);
    }
    expect(affinity.marks.length).toBeLessThanOrEqual(260);
  });

  it('falls back to AWSALBCORS when AWSALB is unknown', () => {
    const router = new AffinityRouter(2);
    const affinity = router.resolve(undefined);
    const value = router.respond(affinity);
    expect(router.resolve(`AWSALB=gone.0; AWSALBCORS=${value}`)).toBe(affinity);
    expect(affinityCookieValues('AWSALBCORS=b; x=y; AWSALB=a')).toEqual(['a', 'b']);
  });
});
