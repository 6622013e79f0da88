/** The routing rule behind the AWSALB cookie, without HTTP: round robin, rotation, grace, eviction. */
import { describe, expect, it } from 'vitest';
import { AffinityRouter, AFFINITY_GRACE_GENERATIONS, affinityCookieValues } from '../src/reference/server/affinityRouter.ts';

const cookie = (value: string) => `other=1; AWSALB=${value}`;

describe('AffinityRouter', () => {
  it('sends requests without a known cookie round robin, and a known cookie to its backend', () => {
    const router = new AffinityRouter(3);
    const first = router.resolve(undefined);
    expect([first.backend, router.resolve('AWSALB=unknown.0').backend, router.resolve('junk').backend, router.resolve(undefined).backend]).toEqual([0, 1, 2, 0]);
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

  it('keeps the last AFFINITY_GRACE_GENERATIONS values; refuses older and future ones', () => {
    const router = new AffinityRouter(2, 1);
    const affinity = router.resolve(undefined);
    // With rotation on every response, values[i] is generation i + 1.
    const values = Array.from({ length: AFFINITY_GRACE_GENERATIONS + 1 }, () => router.respond(affinity));
    expect(router.resolve(cookie(values[AFFINITY_GRACE_GENERATIONS]))).toBe(affinity);
    expect(router.resolve(cookie(values[1]))).toBe(affinity); // AFFINITY_GRACE_GENERATIONS - 1 generations old
    expect(router.resolve(cookie(values[0]))).not.toBe(affinity); // AFFINITY_GRACE_GENERATIONS old
    const [id] = values[0].split('.');
    expect(router.resolve(cookie(`${id}.zzzz`))).not.toBe(affinity);
  });

  it('falls back to AWSALBCORS when AWSALB is unknown', () => {
    const router = new AffinityRouter(2);
    const affinity = router.resolve(undefined);
    const value = router.respond(affinity);
    expect(router.resolve(`AWSALB=gone.0; AWSALBCORS=${value}`)).toBe(affinity);
    expect(affinityCookieValues('AWSALBCORS=b; x=y; AWSALB=a')).toEqual(['a', 'b']);
  });
});
