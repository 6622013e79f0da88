/**
 * Why a plain percentile bootstrap is not enough here: runs have few episodes per game (2 to 10 is
 * usual), and from n values a resampled mean spreads too little, by √((n−1)/n) and by normal instead of
 * Student's t tails. From 2 episodes its 95% interval is just the range of the two scores. Two
 * corrections fix that while keeping the bootstrap's shape for skewed scores (a studentised widening in
 * the spirit of Hesterberg's "expanded percentile" interval):
 *
 * - each sample's resampled mean moves away from its mean by √(n/(n−1)), which makes its spread the
 *   usual unbiased s/√n;
 * - the interval's ends move away from the estimate by t(df)/z, with df from Welch–Satterthwaite over
 *   all the samples the estimate combines (n−1 for one sample), so that for normal data it is Student's
 *   t interval. A total over many games has many degrees of freedom and is barely widened.
 *
 * Both factors tend to 1 as episodes grow. Student's t and normal quantiles come from stdlib's
 * distribution packages: plain synchronous JavaScript, so importing the package entry costs nothing here
 * (a WebAssembly build needed a top-level await, which `require()` of the entry cannot wait for).
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import studentQuantile from '@stdlib/stats-base-dists-t-quantile';

/** Two-sided coverage of every interval arcbench reports. */
export const CONFIDENCE = 0.95;
const UPPER = 1 - (1 - CONFIDENCE) / 2;
const Z = normalQuantile(UPPER, 0, 1);

/** √(n/(n−1)): the resampled mean's spread made the unbiased one; n ≥ 2. */
export function spreadCorrection(n: number): number {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`spreadCorrection: n must be a whole number ≥ 2, got ${n}`);
  return Math.sqrt(n / (n - 1));
}

/** t(df)/z at CONFIDENCE, for df ≥ 1 (fractional df are rounded down, which widens a little). */
export function tailWidening(degreesOfFreedom: number): number {
  if (!(degreesOfFreedom >= 1)) throw new RangeError(`tailWidening: degrees of freedom must be ≥ 1, got ${degreesOfFreedom}`);
  if (!Number.isFinite(degreesOfFreedom)) return 1;
  return studentQuantile(UPPER, Math.floor(degreesOfFreedom)) / Z;
}

/** A sample mean entering a linear estimate with a weight: its size and its values' variance. */
export interface WeightedSample {
  readonly weight: number;
  readonly n: number;
  /** Sample variance (n−1 in the denominator). */
  readonly variance: number;
}

/**
 * Welch–Satterthwaite degrees of freedom of Σ weight·mean: (Σ vᵢ)² / Σ vᵢ²/(nᵢ−1) with
 * vᵢ = weightᵢ²·varianceᵢ/nᵢ. Infinity when nothing varies (the interval is then a point anyway).
 */
export function welchDegreesOfFreedom(samples: readonly WeightedSample[]): number {
  let total = 0;
  let denominator = 0;
  for (const s of samples) {
    const v = (s.weight * s.weight * s.variance) / s.n;
    total += v;
    denominator += (v * v) / (s.n - 1);
  }
  return denominator === 0 ? Infinity : (total * total) / denominator;
}
