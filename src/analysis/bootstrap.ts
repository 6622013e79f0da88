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

/** The mean of one resample of `values`, summed left to right as `average` sums. */
function resampledMean(values: readonly number[], rng: Rng): number {
  return rng.sumOfPicks(values) / values.length;
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
  return stratifiedEstimates(strata, options).total;
}

/** One component in a resampling: its weight within its stratum, and its mean. */
interface Part extends Component {
  readonly mean: number;
}

/**
 * The mean over strata (as stratifiedEstimate) and each stratum's own statistic with its interval, all
 * from one set of replicates: a results table needs both, and resampling once instead of twice halves
 * what its intervals cost (about 35 ms of a 2,000-episode run).
 */
export function stratifiedEstimates(strata: readonly Stratum[], options: BootstrapOptions = {}): { total: Estimate; strata: Estimate[] } {
  if (strata.length === 0) throw new RangeError('stratifiedEstimate: no strata; give at least one game');
  const parts = strata.map((s) => s.components.map((c) => ({ ...c, mean: average(c.values) })));
  const all = parts.flatMap((ofStratum) => ofStratum.map((c) => ({ ...c, weight: c.weight / strata.length })));
  // Only strata with enough values in every component are resampled: one short game has no interval
  // of its own, and leaves the total without one, but takes nothing from the other games'.
  const resampled = parts.map((ofStratum) => ofStratum.every((c) => c.values.length >= MIN_SAMPLE_FOR_INTERVAL));
  const draws = resampledMeans(parts.filter((_, s) => resampled[s]).flat(), options);
  let next = 0;
  const columns = parts.map((ofStratum, s) => (resampled[s] ? ofStratum.map(() => draws[next++]!) : null));
  return {
    total: columns.every((c): c is Float64Array[] => c !== null) ? percentileEstimate(all, columns.flat()) : withoutInterval(all),
    strata: parts.map((ofStratum, s) => (columns[s] ? percentileEstimate(ofStratum, columns[s]) : withoutInterval(ofStratum))),
  };
}

function withoutInterval(parts: readonly Part[]): Estimate {
  return { value: weightedMean(parts), n: parts.reduce((sum, c) => sum + c.values.length, 0), interval: null };
}

function weightedMean(parts: readonly Part[]): number {
  return parts.reduce((sum, c) => sum + c.weight * c.mean, 0);
}

/**
 * Every component's replicate means, each corrected to the unbiased spread: replicate r of every
 * component is drawn before replicate r + 1 of any, one stream from the seed.
 */
function resampledMeans(parts: readonly Part[], options: BootstrapOptions): Float64Array[] {
  const rng = createRng(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const corrections = parts.map((c) => spreadCorrection(c.values.length));
  const draws = parts.map(() => new Float64Array(resamples));
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < parts.length; k++) {
      // The hot loop of the bootstrap: k is in bounds of all three lists (same length), read without a check.
      const c = parts[k]!;
      draws[k]![r] = c.mean + corrections[k]! * (resampledMean(c.values, rng) - c.mean);
    }
  }
  return draws;
}

/** The weighted sum's percentile interval over the replicates, widened for small samples. */
function percentileEstimate(parts: readonly Part[], draws: readonly Float64Array[]): Estimate {
  const { value, n } = withoutInterval(parts);
  const replicates = new Float64Array(draws[0]!.length);
  for (let k = 0; k < parts.length; k++) {
    const weight = parts[k]!.weight;
    const column = draws[k]!;
    for (let r = 0; r < replicates.length; r++) replicates[r]! += weight * column[r]!;
  }
  replicates.sort();
  const widening = tailWidening(
    welchDegreesOfFreedom(parts.map((c) => ({ weight: c.weight, n: c.values.length, variance: sampleVariance(c.values as number[]) }))),
  );
  const tail = (1 - CONFIDENCE) / 2;
  const sorted = Array.from(replicates);
  const widen = (end: number) => value + widening * (end - value);
  return { value, n, interval: { low: widen(quantileSorted(sorted, tail)), high: widen(quantileSorted(sorted, 1 - tail)) } };
}

/** The mean of one sample with its interval. */
export function meanEstimate(values: readonly number[], options: BootstrapOptions = {}): Estimate {
  return stratifiedEstimate([meanStratum(values)], options);
}
