/**
 * The seeded bootstrap behind every interval arcbench prints. One engine serves all of them: an
 * estimate is a mean over strata (games) of each stratum's own statistic (a mean episode score, a mean
 * paired difference, a difference of two means), and a replicate resamples every sample on its own, so
 * episodes never move from one game to another. The percentile interval of the replicates is widened
 * for small samples (smallSample.ts): few episodes give an honest, wide interval, not a falsely narrow one.
 *
 * Seeded with a fixed seed by default: the same episodes always give the same interval, in the table of
 * the run and in every later comparison of it.
 */
import { quantileSorted, sampleVariance } from 'simple-statistics';
import { createRng, type Rng } from '../agent/rng.ts';
import { CONFIDENCE, spreadCorrection, tailWidening, welchDegreesOfFreedom } from './smallSample.ts';

/** Below this many episodes (or pairs) in a sample there is no interval: one value shows no spread. */
export const MIN_SAMPLE_FOR_INTERVAL = 2;
export const DEFAULT_RESAMPLES = 2000;
/** Any fixed value does; this one is written down so a reader can reproduce an interval by hand. */
export const DEFAULT_BOOTSTRAP_SEED = 0x5eed_b007;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** A point estimate with its bootstrap interval; `interval` is null when some sample is too small. */
export interface Estimate {
  readonly value: number;
  /** Episodes (or pairs) behind the estimate, over all samples. */
  readonly n: number;
  readonly interval: Interval | null;
}

export interface BootstrapOptions {
  readonly seed?: number;
  readonly resamples?: number;
}

/** One sample whose mean enters a stratum's statistic with a weight (+1, or −1 for a baseline). */
interface Component {
  readonly values: readonly number[];
  readonly weight: number;
}

/** A stratum's statistic: Σ weight · mean over its components. */
export interface Stratum {
  readonly components: readonly Component[];
}

/** The mean of one sample (episode scores of one game, or paired differences). */
export function meanStratum(values: readonly number[]): Stratum {
  if (values.length === 0) throw new RangeError('meanStratum: no values; a stratum needs at least one episode');
  return { components: [{ values, weight: 1 }] };
}

/** candidate mean − baseline mean of two independent samples, each resampled on its own. */
export function differenceOfMeansStratum(baseline: readonly number[], candidate: readonly number[]): Stratum {
  if (baseline.length === 0 || candidate.length === 0) throw new RangeError('differenceOfMeansStratum: both sides need at least one episode');
  return {
    components: [
      { values: candidate, weight: 1 },
      { values: baseline, weight: -1 },
    ],
  };
}

/**
 * Plain left-to-right sums, for the data and its resamples alike: with one summation for both, a sample
 * of equal values resamples to exactly its own mean, and the interval is exactly that value.
 */
function average(values: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

function resampledMean(values: readonly number[], rng: Rng): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)]!;
  return sum / values.length;
}

/** The statistic of a stratum on its data. */
export function stratumEstimate(stratum: Stratum): number {
  return stratum.components.reduce((sum, c) => sum + c.weight * average(c.values), 0);
}

/**
 * The mean over strata of their statistics, with a 95% interval. Each replicate resamples every
 * component of every stratum independently (its deviation from its mean corrected to the unbiased
 * spread); the percentile interval of the replicates is then widened by t(df)/z. No interval when any
 * component has fewer than MIN_SAMPLE_FOR_INTERVAL values.
 */
export function stratifiedEstimate(strata: readonly Stratum[], options: BootstrapOptions = {}): Estimate {
  if (strata.length === 0) throw new RangeError('stratifiedEstimate: no strata; give at least one game');
  const components = strata.flatMap((s) => s.components.map((c) => ({ ...c, weight: c.weight / strata.length, mean: average(c.values) })));
  const value = components.reduce((sum, c) => sum + c.weight * c.mean, 0);
  const n = components.reduce((sum, c) => sum + c.values.length, 0);
  if (components.some((c) => c.values.length < MIN_SAMPLE_FOR_INTERVAL)) return { value, n, interval: null };

  const corrections = components.map((c) => spreadCorrection(c.values.length));
  const rng = createRng(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const replicates = new Array<number>(options.resamples ?? DEFAULT_RESAMPLES);
  for (let r = 0; r < replicates.length; r++) {
    let replicate = 0;
    for (let k = 0; k < components.length; k++) {
      // The hot loop of the bootstrap: k is in bounds of both lists (same length), read without a check.
      const c = components[k]!;
      replicate += c.weight * (c.mean + corrections[k]! * (resampledMean(c.values, rng) - c.mean));
    }
    replicates[r] = replicate;
  }
  replicates.sort((a, b) => a - b);
  const widening = tailWidening(
    welchDegreesOfFreedom(components.map((c) => ({ weight: c.weight, n: c.values.length, variance: sampleVariance(c.values as number[]) }))),
  );
  const tail = (1 - CONFIDENCE) / 2;
  const widen = (end: number) => value + widening * (end - value);
  return { value, n, interval: { low: widen(quantileSorted(replicates, tail)), high: widen(quantileSorted(replicates, 1 - tail)) } };
}

/** The mean of one sample with its interval. */
export function meanEstimate(values: readonly number[], options: BootstrapOptions = {}): Estimate {
  return stratifiedEstimate([meanStratum(values)], options);
}
