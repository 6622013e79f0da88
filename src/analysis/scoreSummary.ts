/**
 * The statistics of one agent's episode scores in a run: per game the mean with its 95% interval, and
 * a total (the mean over games of the game means, as the card averages its games) whose interval
 * resamples episodes within each game.
 */
import { type BootstrapOptions, type Estimate, type Interval, meanStratum, stratifiedEstimates } from './bootstrap.ts';

/**
 * A run scores at most 100 (docs/protocol.md §5 caps it at 100 × the completed share of the weight) and at least 0;
 * an interval of a mean score is kept inside that range, where the widening for few episodes could
 * otherwise reach past it.
 */
const SCORE_FLOOR = 0;
const SCORE_CEILING = 100;

/** An interval of a mean score, kept inside the range a score can take. */
export function intervalWithinScoreRange(interval: Interval | null): Interval | null {
  if (interval === null) return null;
  const clamp = (v: number) => Math.min(SCORE_CEILING, Math.max(SCORE_FLOOR, v));
  return { low: clamp(interval.low), high: clamp(interval.high) };
}

function withinScoreRange(estimate: Estimate): Estimate {
  return { ...estimate, interval: intervalWithinScoreRange(estimate.interval) };
}

export interface ScoreSummary {
  /** Per game id, in the order given. */
  readonly games: ReadonlyMap<string, Estimate>;
  /** Null when the agent finished no episode. */
  readonly total: Estimate | null;
}

/** Summarises episode scores grouped by game (each list non-empty). */
export function summarizeScores(scoresByGame: ReadonlyMap<string, readonly number[]>, options: BootstrapOptions = {}): ScoreSummary {
  if (scoresByGame.size === 0) return { games: new Map(), total: null };
  const estimates = stratifiedEstimates(
    [...scoresByGame.values()].map((scores) => meanStratum(scores)),
    options,
  );
  const games = new Map([...scoresByGame.keys()].map((game, i) => [game, withinScoreRange(estimates.strata[i]!)]));
  return { games, total: withinScoreRange(estimates.total) };
}
