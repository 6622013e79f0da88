/**
 * The seeded generator: fillInts draws exactly what as many int() calls would, whatever the seed, the
 * bound and the count, and leaves the generator where they would (the bootstrap's intervals, drawn with
 * fillInts, stay the ones int() gave); every draw is in range.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/agent/rng.ts';

describe('createRng', () => {
  it('fillInts gives the numbers of as many int() calls, and the generator goes on the same', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 2 ** 31 }), fc.nat({ max: 300 }), (seed, n, count) => {
        const calls = createRng(seed);
        const expected = Array.from({ length: count }, () => calls.int(n));
        const filled = createRng(seed);
        const into = new Uint32Array(count);
        filled.fillInts(n, into);
        expect(Array.from(into)).toEqual(expected);
        expect(into.every((value) => value >= 0 && value < n)).toBe(true);
        expect(filled.next()).toBe(calls.next());
      }),
    );
  });

  it('the same seed gives the same draws; another seed, others', () => {
    const draws = (seed: number) =>
      Array.from(
        { length: 20 },
        (
          (rng) => () =>
            rng.int(1000)
        )(createRng(seed)),
      );
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
  });
});
