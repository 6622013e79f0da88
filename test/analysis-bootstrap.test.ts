import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BOOTSTRAP_SEED,
  differenceOfMeansStratum,
  type Interval,
  meanEstimate,
  meanStratum,
  stratifiedEstimate,
  stratifiedEstimates,
} from '../src/analysis/bootstrap.ts';
import { spreadCorrection, tailWidening, welchDegreesOfFreedom } from '../src/analysis/smallSample.ts';

/** Exact quantile of Binomial(n, p): the smallest k with P(K ≤ k) ≥ q. */
function binomialQuantile(n: number, p: number, q: number): number {
  let cumulative = 0;
  let pmf = (1 - p) ** n;
  for (let k = 0; k <= n; k++) {
    cumulative += pmf;
    if (cumulative >= q - 1e-12) return k;
    pmf *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  return n;
}

/** Where a resampled mean of n values at `at` lands once widened around the sample mean `mean`. */
const widened = (mean: number, at: number, n: number) => mean + spreadCorrection(n) * tailWidening(n - 1) * (at - mean);

const ones = (k: number, n: number) => Array.from({ length: n }, (_, i) => (i < k ? 1 : 0));
const width = (interval: Interval | null) => (interval === null ? NaN : interval.high - interval.low);

describe('the percentile bootstrap against known answers', () => {
  it('a sample of equal values has exactly that value as mean and interval', () => {
    expect(meanEstimate([42.5, 42.5, 42.5])).toEqual({ value: 42.5, n: 3, interval: { low: 42.5, high: 42.5 } });
  });

  it('{0, 1} resamples to means 0, ½, 1 with weights ¼, ½, ¼: the interval widens the outer two', () => {
    // From two episodes the plain percentile interval would be the range [0, 1]; widened for n = 2 it
    // spans what Student's t with 1 degree of freedom allows.
    const interval = meanEstimate([0, 1]).interval!;
    // To 12 places: the ends are computed in another order than `widened`, so they may differ in the last bit.
    expect(interval.low).toBeCloseTo(widened(0.5, 0, 2), 12);
    expect(interval.high).toBeCloseTo(widened(0.5, 1, 2), 12);
    // Student's t at 97.5% with 1 degree of freedom is 12.71 (z is 1.96): far wider than the range [0, 1].
    expect(interval.high - interval.low).toBeGreaterThan(9);
  });

  it('a 0/1 sample resamples to Binomial(n, p̂)/n: the interval is its exact quantiles, widened', () => {
    // n = 20 episodes, 6 wins: the bootstrap distribution of the mean is Binomial(20, 0.3)/20 exactly.
    const { value, interval } = meanEstimate(ones(6, 20), { resamples: 40_000 });
    expect(value).toBe(0.3);
    expect(interval!.low).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.025) / 20, 20), 10);
    expect(interval!.high).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.975) / 20, 20), 10);
  });

  it('widens by √(n/(n−1))·t(n−1)/z, from the t table: 9.168 for n = 2, 1.584 for 5, 1.061 for 30', () => {
    // t(0.975) with 1, 4 and 29 degrees of freedom: 12.706, 2.776, 2.045; z(0.975) = 1.960.
    expect(spreadCorrection(2) * tailWidening(1)).toBeCloseTo((Math.SQRT2 * 12.706) / 1.96, 2);
    expect(spreadCorrection(5) * tailWidening(4)).toBeCloseTo((Math.sqrt(5 / 4) * 2.776) / 1.96, 2);
    expect(spreadCorrection(30) * tailWidening(29)).toBeCloseTo((Math.sqrt(30 / 29) * 2.045) / 1.96, 2);
    expect(tailWidening(Infinity)).toBe(1);
    expect(() => spreadCorrection(1)).toThrow(RangeError);
  });

  it('takes Welch–Satterthwaite degrees of freedom over the samples it combines', () => {
    expect(welchDegreesOfFreedom([{ weight: 1, n: 8, variance: 3 }])).toBeCloseTo(7, 12);
    // Two samples of the same size and variance: 2(n − 1), whatever the weights' signs.
    expect(
      welchDegreesOfFreedom([
        { weight: 0.5, n: 5, variance: 2 },
        { weight: -0.5, n: 5, variance: 2 },
      ]),
    ).toBeCloseTo(8, 12);
    // A sample that does not vary adds nothing; nothing varying at all: infinite.
    expect(
      welchDegreesOfFreedom([
        { weight: 1, n: 3, variance: 0 },
        { weight: 1, n: 20, variance: 1 },
      ]),
    ).toBeCloseTo(19, 12);
    expect(welchDegreesOfFreedom([{ weight: 1, n: 3, variance: 0 }])).toBe(Infinity);
  });

  it('for symmetric scores the interval is close to Student’s t interval, mean ± t·s/√n', () => {
    // Ten scores, mean 50, sample sd s = 10.954 (by hand: squares sum to 1080 over 9): t(9) = 2.262.
    const scores = [32, 38, 42, 46, 50, 50, 54, 58, 62, 68];
    const halfWidth = (2.262 * Math.sqrt(1080 / 9)) / Math.sqrt(10);
    const { interval } = meanEstimate(scores, { resamples: 40_000 });
    expect(interval!.low).toBeCloseTo(50 - halfWidth, 0);
    expect(interval!.high).toBeCloseTo(50 + halfWidth, 0);
  });

  it('for a large sample the interval is close to the normal one, mean ± 1.96·sd/√n', () => {
    // 400 episodes, half scoring 1: sd/√n = 0.5/20 = 0.025, so about [0.451, 0.549].
    const { interval } = meanEstimate(ones(200, 400), { resamples: 20_000 });
    expect(interval!.low).toBeCloseTo(0.5 - 1.96 * 0.025, 2);
    expect(interval!.high).toBeCloseTo(0.5 + 1.96 * 0.025, 2);
  });

  it('below 2 episodes there is no interval', () => {
    expect(meanEstimate([7])).toEqual({ value: 7, n: 1, interval: null });
  });

  it('is reproducible: the default seed is fixed, another seed may move the ends', () => {
    const sample = [0, 3.2, 11, 40, 0, 0, 7.5, 19];
    expect(meanEstimate(sample)).toEqual(meanEstimate(sample, { seed: DEFAULT_BOOTSTRAP_SEED }));
    expect(meanEstimate(sample, { seed: 1 }).value).toBe(meanEstimate(sample).value);
  });
});

describe('the stratified total (episodes resampled within each game)', () => {
  it('is the mean of the game means', () => {
    const total = stratifiedEstimate([meanStratum([10, 20]), meanStratum([0, 0, 30])]);
    expect(total.value).toBe(12.5);
    expect(total.n).toBe(5);
  });

  it('never moves an episode from one game to another: games of constant scores give a point interval', () => {
    // Pooled resampling of these 20 episodes would spread over [25, 75]; within games nothing varies.
    const total = stratifiedEstimate([meanStratum(new Array(10).fill(0)), meanStratum(new Array(10).fill(100))]);
    expect(total.interval).toEqual({ low: 50, high: 50 });
  });

  it('a constant game shifts and halves the other game’s spread: (5 + Binomial(20, 0.3)/20) / 2', () => {
    const total = stratifiedEstimate([meanStratum([5, 5, 5]), meanStratum(ones(6, 20))], { resamples: 40_000 });
    expect(total.interval!.low).toBeCloseTo((5 + widened(0.3, binomialQuantile(20, 0.3, 0.025) / 20, 20)) / 2, 10);
    expect(total.interval!.high).toBeCloseTo((5 + widened(0.3, binomialQuantile(20, 0.3, 0.975) / 20, 20)) / 2, 10);
  });

  it('has no interval when any game has fewer than 2 episodes', () => {
    expect(stratifiedEstimate([meanStratum([1, 2, 3]), meanStratum([4])]).interval).toBeNull();
  });
});

describe('the total and each game from one resampling (stratifiedEstimates)', () => {
  it('gives the total stratifiedEstimate gives, and a game alone the interval it would have alone', () => {
    const strata = [meanStratum(ones(6, 20)), meanStratum([5, 5, 5])];
    const both = stratifiedEstimates(strata, { resamples: 40_000 });
    expect(both.total).toEqual(stratifiedEstimate(strata, { resamples: 40_000 }));
    expect(both.strata[0]!.interval!.low).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.025) / 20, 20), 10);
    expect(both.strata[0]!.interval!.high).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.975) / 20, 20), 10);
    expect(both.strata[1]).toEqual({ value: 5, n: 3, interval: { low: 5, high: 5 } });
  });

  it('a game of one episode has no interval, nor has the total, but the other games keep theirs', () => {
    const both = stratifiedEstimates([meanStratum([1, 2, 3]), meanStratum([4])]);
    expect(both.total.interval).toBeNull();
    expect(both.total.value).toBe(3);
    expect(both.strata[1]).toEqual({ value: 4, n: 1, interval: null });
    expect(both.strata[0]!.interval).toEqual(meanEstimate([1, 2, 3]).interval);
  });

  it('each game’s interval contains its mean, whatever the scores', () => {
    const game = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(game, { minLength: 1, maxLength: 4 }), (games) => {
        const { strata } = stratifiedEstimates(
          games.map((scores) => meanStratum(scores)),
          { resamples: 200 },
        );
        strata.forEach((estimate, g) => {
          expect(estimate.n).toBe(games[g]!.length);
          expect(estimate.interval!.low).toBeLessThanOrEqual(estimate.value + 1e-9);
          expect(estimate.interval!.high).toBeGreaterThanOrEqual(estimate.value - 1e-9);
        });
      }),
    );
  });
});

describe('differences', () => {
  it('unpaired: candidate mean − baseline mean, each side resampled on its own', () => {
    // Baseline constant 0, candidate 6 of 20 at 1: the difference resamples like Binomial(20, 0.3)/20.
    const estimate = stratifiedEstimate([differenceOfMeansStratum([0, 0, 0, 0], ones(6, 20))], { resamples: 40_000 });
    expect(estimate.value).toBeCloseTo(0.3, 12);
    expect(estimate.n).toBe(24);
    expect(estimate.interval!.low).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.025) / 20, 20), 10);
    expect(estimate.interval!.high).toBeCloseTo(widened(0.3, binomialQuantile(20, 0.3, 0.975) / 20, 20), 10);
  });

  it('unpaired: no interval when either side has a single episode', () => {
    expect(stratifiedEstimate([differenceOfMeansStratum([1], [1, 2, 3])]).interval).toBeNull();
    expect(stratifiedEstimate([differenceOfMeansStratum([1, 2], [3])]).interval).toBeNull();
  });
});

/**
 * Scores as a run makes them: 0..115, never subnormal (below 2^-1022 but above 0). Among subnormals
 * every interval is a few multiples of the smallest double, and none can narrow: [5.4e-323, 6e-323]
 * failed "narrows as episodes grow" with widths of 5e-324 both ways, before and after this wave.
 */
const SMALLEST_NORMAL = 2 ** -1022;
const score = fc.double({ min: 0, max: 115, noNaN: true, noDefaultInfinity: true }).filter((v) => v === 0 || v >= SMALLEST_NORMAL);
const sample = fc.array(score, { minLength: 2, maxLength: 30 });
const varied = sample.filter((values) => values.some((v) => v !== values[0]));
const fast = { resamples: 400 };

describe('bootstrap properties', () => {
  it('the interval contains the sample mean', () => {
    fc.assert(
      fc.property(sample, fc.integer({ min: 0, max: 0xffffffff }), (values, seed) => {
        const { value, interval } = meanEstimate(values, { ...fast, seed });
        const slack = 1e-9 * Math.max(1, Math.abs(value));
        expect(interval!.low).toBeLessThanOrEqual(value + slack);
        expect(interval!.high).toBeGreaterThanOrEqual(value - slack);
      }),
    );
  });

  it('the same seed gives the same interval', () => {
    fc.assert(
      fc.property(sample, fc.integer({ min: 0, max: 0xffffffff }), (values, seed) => {
        expect(meanEstimate(values, { ...fast, seed })).toEqual(meanEstimate([...values], { ...fast, seed }));
      }),
    );
  });

  it('narrows as episodes grow: the same scores seen 16 times over give a narrower interval', () => {
    fc.assert(
      fc.property(varied, (values) => {
        const more = Array.from({ length: 16 }, () => values).flat();
        expect(width(meanEstimate(more, fast).interval)).toBeLessThan(width(meanEstimate(values, fast).interval));
      }),
    );
  });

  it('never ±0: scores that differ always give an interval of positive width', () => {
    fc.assert(
      fc.property(varied, (values) => {
        expect(width(meanEstimate(values, fast).interval)).toBeGreaterThan(0);
      }),
    );
  });

  it('below 2 episodes: unavailable, whatever the score', () => {
    fc.assert(
      fc.property(score, (value) => {
        expect(meanEstimate([value]).interval).toBeNull();
      }),
    );
  });
});
