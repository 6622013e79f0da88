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
 * Both factors tend to 1 as episodes grow. Only the 97.5% quantiles are needed (CONFIDENCE is fixed),
 * so they are public constants: Student's t from the standard table for 1..30 degrees of freedom, and
 * beyond that the Cornish–Fisher expansion, within 3·10⁻⁸ of the exact value. A statistics package for
 * these two numbers brought 227 packages (26 MB) with it.
 */

/** Two-sided coverage of every interval arcbench reports. */
export const CONFIDENCE = 0.95;

/** The standard normal quantile at 97.5%. */
const Z = 1.959963984540054;

/** Student's t quantile at 97.5% for 1..30 degrees of freedom. */
const T_TABLE = [
  12.70620474, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852, 2.20098516, 2.17881283,
  2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.10092204, 2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.06865761, 2.063898562,
  2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
];

/** Student's t quantile at 97.5% for whole degrees of freedom ≥ 1. */
export function studentQuantile(degreesOfFreedom: number): number {
  const tabled = T_TABLE[degreesOfFreedom - 1];
  if (tabled !== undefined) return tabled;
  const n = degreesOfFreedom;
  const z = Z;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  const g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160;
  return z + g1 / n + g2 / n ** 2 + g3 / n ** 3 + g4 / n ** 4;
}

/** √(n/(n−1)): the resampled mean's spread made the unbiased one; n ≥ 2. */
export function spreadCorrection(n: number): number {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`spreadCorrection: n must be a whole number ≥ 2, got ${n}`);
  return Math.sqrt(n / (n - 1));
}

/** t(df)/z at CONFIDENCE, for df ≥ 1 (fractional df are rounded down, which widens a little). */
export function tailWidening(degreesOfFreedom: number): number {
  if (!(degreesOfFreedom >= 1)) throw new RangeError(`tailWidening: degrees of freedom must be ≥ 1, got ${degreesOfFreedom}`);
  if (!Number.isFinite(degreesOfFreedom)) return 1;
  return studentQuantile(Math.floor(degreesOfFreedom)) / Z;
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
