/**
 * The minimum detectable difference of a comparison: the smallest true difference that its game-
 * clustered test would find (two-sided 5%) four times in five (80% power), from the spread of the
 * per-game differences: MDD = (t(G−1) at 97.5% + z at 80%) · s/√G. A measured difference below it
 * may be real, but this run cannot tell it from noise, and compare says so instead of naming a winner.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { studentQuantile } from './smallSample.ts';

/** The standard normal quantile at 80%: the power convention (80%) of most power analyses. */
const Z_POWER = 0.8416212335729143;

/** From the spread of the per-game differences; null below two games (no spread between games to go on). */
export function minimumDetectableDifference(gameDifferences: readonly number[]): number | null {
  const games = gameDifferences.length;
  if (games < 2) return null;
  return (studentQuantile(games - 1) + Z_POWER) * (sampleStandardDeviation(gameDifferences as number[]) / Math.sqrt(games));
}

/** From a spread known ahead (an SD of per-game differences, say from an earlier run) and a number of games. */
export function plannedDetectableDifference(gameSd: number, games: number): number | null {
  if (games < 2) return null;
  return (studentQuantile(games - 1) + Z_POWER) * (gameSd / Math.sqrt(games));
}

/** The sentence: with 3 repeats of these 6 games, a difference under 2.40 points cannot be told from noise. */
export function detectableSentence(mdd: number, games: number, repeats: number): string {
  const draws = `${repeats} repeat${repeats === 1 ? '' : 's'} of these ${games} game${games === 1 ? '' : 's'}`;
  return `with ${draws}, a difference under ${mdd.toFixed(2)} points cannot be told from noise`;
}
