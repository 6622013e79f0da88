/**
 * The seeded percentile bootstrap behind every interval arcbench prints. One engine serves all of them:
 * an estimate is a mean over strata (games) of each stratum's own statistic (a mean episode score, a
 * mean paired difference, a difference of two means), and a replicate resamples every stratum on its
 * own, so episodes never move from one game to another.
 *
 * Seeded with a fixed seed by default: the same episodes always give the same interval, in the table of
 * the run and in every later comparison of it.
 */
import { quantileSorted } from 'simple-statistics';
import { createRng, type Rng } from '../runner/rng.ts';

/** Below this many episodes (or pairs) in a stratum there is no interval: one value shows no spread. */
export const MIN_SAMPLE_FOR_INTERVAL = 2;
export const DEFAULT_CONFIDENCE = 0.95;
export const DEFAULT_RESAMPLES = 2000;
/** Any fixed value does; this one is written down so a reader can reproduce an interval by hand. */
export const DEFAULT_BOOTSTRAP_SEED = 0x5eed_b007;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** A point estimate with its bootstrap interval; `interval` is null when some stratum is too small. */
export interface Estimate {
  readonly value: number;
  /** Episodes (or pairs) behind the estimate, over all strata. */
  readonly n: number;
  readonly interval: Interval | null;
}

export interface BootstrapOptions {
  readonly seed?: number;
  readonly resamples?: number;
  /** Coverage of the interval, e.g. 0.95. */
  readonly confidence?: number;
}

/** One stratum: its statistic on the data, and the same statistic on a resample drawn from `rng`. */
export interface Stratum {
  readonly estimate: number;
  readonly n: number;
  /** Whether the stratum has enough data to resample meaningfully. */
  readonly resamplable: boolean;
  resample(rng: Rng): number;
}

/**
 * Plain left-to-right sums, for the data and its resamples alike: with one summation for both, a sample
 * of equal values resamples to exactly its own mean, and the interval is exactly that value.
 */
function average(values: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** Mean of `values` resampled with replacement (same size as the data). */
function resampledMean(values: readonly number[], rng: Rng): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)];
  return sum / values.length;
}

/** The mean of one sample (episode scores of one game, or paired differences). */
export function meanStratum(values: readonly number[]): Stratum {
  if (values.length === 0) throw new RangeError('meanStratum: no values; a stratum needs at least one episode');
  return {
    estimate: average(values),
    n: values.length,
    resamplable: values.length >= MIN_SAMPLE_FOR_INTERVAL,
    resample: (rng) => resampledMean(values, rng),
  };
}

/** candidate mean − baseline mean of two independent samples, each resampled on its own. */
export function differenceOfMeansStratum(baseline: readonly number[], candidate: readonly number[]): Stratum {
  const b = meanStratum(baseline);
  const c = meanStratum(candidate);
  return {
    estimate: c.estimate - b.estimate,
    n: b.n + c.n,
    resamplable: b.resamplable && c.resamplable,
    resample: (rng) => c.resample(rng) - b.resample(rng),
  };
}

/**
 * The mean over strata of their estimates, with a percentile bootstrap interval: each replicate
 * resamples every stratum independently and averages the strata. No interval when any stratum is too
 * small to resample.
 */
export function stratifiedEstimate(strata: readonly Stratum[], options: BootstrapOptions = {}): Estimate {
  if (strata.length === 0) throw new RangeError('stratifiedEstimate: no strata; give at least one game');
  const value = average(strata.map((s) => s.estimate));
  const n = strata.reduce((sum, s) => sum + s.n, 0);
  if (!strata.every((s) => s.resamplable)) return { value, n, interval: null };
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const rng = createRng(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const replicates = new Array<number>(resamples);
  const draws = new Array<number>(strata.length);
  for (let r = 0; r < resamples; r++) {
    for (let s = 0; s < strata.length; s++) draws[s] = strata[s].resample(rng);
    replicates[r] = average(draws);
  }
  replicates.sort((a, b) => a - b);
  const tail = (1 - (options.confidence ?? DEFAULT_CONFIDENCE)) / 2;
  return { value, n, interval: { low: quantileSorted(replicates, tail), high: quantileSorted(replicates, 1 - tail) } };
}

/** The mean of one sample with its interval. */
export function meanEstimate(values: readonly number[], options: BootstrapOptions = {}): Estimate {
  return stratifiedEstimate([meanStratum(values)], options);
}
