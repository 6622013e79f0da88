/**
 * The seeded generator: sumOfPicks adds exactly the items as many pick() calls would choose, in their
 * order, whatever the seed and the values, and leaves the generator where they would (the bootstrap's
 * intervals, drawn with sumOfPicks, stay the ones pick() gave).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/agent/rng.ts';

describe('createRng', () => {
  it('sumOfPicks adds what as many pick() calls choose, in order, and the generator goes on the same', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { maxLength: 300 }), (seed, values) => {
        const calls = createRng(seed);
        let expected = 0;
        for (let i = 0; i < values.length; i++) expected += calls.pick(values);
        const summed = createRng(seed);
        expect(Object.is(summed.sumOfPicks(values), expected)).toBe(true);
        expect(summed.next()).toBe(calls.next());
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
