/**
 * Intervals clustered by game. Episodes of one game are not independent draws of an agent's skill: the
 * game itself is drawn (from the games it could have been), and its episodes share it. Treating a
 * run's 60 episodes as 60 draws makes an interval as narrow as 60 draws would give, when the question
 * "is this agent better on games like these?" has one draw per game. So the unit here is the game: one
 * value per game (its mean over every episode and repeat, or its mean paired difference), and two
 * intervals of the mean over games, stated with what they cluster on:
 *
 * - a cluster bootstrap that resamples whole games (with the small-sample corrections of
 *   smallSample.ts, df = games − 1), which keeps the skew of scores;
 * - Student's t over the game values, the textbook alternative, exact for normal game values.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { createRng } from '../agent/rng.ts';
import { type BootstrapOptions, DEFAULT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES, type Interval } from './bootstrap.ts';
import { spreadCorrection, studentQuantile, tailWidening } from './smallSample.ts';

export type ClusterMethod = 'cluster-bootstrap' | 'student-t';

/** Said beside every interval clustered here, so a table states what its interval assumes. */
export const CLUSTERING_WORDS: Readonly<Record<ClusterMethod, string>> = {
  'cluster-bootstrap': 'clustered by game (bootstrap over games)',
  'student-t': 'clustered by game (Student t over games)',
};

export interface ClusteredEstimate {
  /** The mean over games of the game values. */
  readonly value: number;
  /** Games behind it: the clusters. */
  readonly games: number;
  readonly method: ClusterMethod;
  /** Null below two games: one game shows no spread between games. */
  readonly interval: Interval | null;
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Student's t interval of the mean over games: mean ± t(G−1) · s/√G. */
export function studentOverGames(gameValues: readonly number[]): ClusteredEstimate {
  const value = mean(gameValues);
  const games = gameValues.length;
  if (games < 2) return { value, games, method: 'student-t', interval: null };
  const half = studentQuantile(games - 1) * (sampleStandardDeviation(gameValues as number[]) / Math.sqrt(games));
  return { value, games, method: 'student-t', interval: { low: value - half, high: value + half } };
}

/** The cluster bootstrap's percentile interval: whole games resampled, spread made unbiased, tails widened by t(G−1)/z. */
export function bootstrapOverGames(gameValues: readonly number[], options: BootstrapOptions = {}): ClusteredEstimate {
  const value = mean(gameValues);
  const games = gameValues.length;
  if (games < 2) return { value, games, method: 'cluster-bootstrap', interval: null };
  const rng = createRng(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const correction = spreadCorrection(games);
  const replicates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) replicates[r] = value + correction * (rng.sumOfPicks(gameValues) / games - value);
  replicates.sort();
  const widening = tailWidening(games - 1);
  const at = (p: number) => value + widening * (replicates[Math.min(resamples - 1, Math.max(0, Math.round(p * (resamples - 1))))]! - value);
  return { value, games, method: 'cluster-bootstrap', interval: { low: at(0.025), high: at(0.975) } };
}

/** Both clustered intervals of one set of game values. */
export function clusteredByGame(gameValues: readonly number[], options: BootstrapOptions = {}): Record<ClusterMethod, ClusteredEstimate> {
  return { 'cluster-bootstrap': bootstrapOverGames(gameValues, options), 'student-t': studentOverGames(gameValues) };
}

/** One value per game: the mean of its episodes' scores over every repeat, in the order games first appear. */
export function gameMeans(episodes: ReadonlyArray<{ readonly game: string; readonly score: number }>): number[] {
  const byGame = new Map<string, number[]>();
  for (const e of episodes) byGame.set(e.game, [...(byGame.get(e.game) ?? []), e.score]);
  return [...byGame.values()].map(mean);
}
