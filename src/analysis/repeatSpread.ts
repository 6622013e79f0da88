/**
 * The spread across repeats: each repeat is a full draw of the plan, so its score (the mean over games
 * of its game means) is what one run would have reported. Their mean, SD and range show how far one
 * draw can be from another, which no interval of a single run shows: a notebook's best draw and its
 * mean are both here.
 */
import { sampleStandardDeviation } from 'simple-statistics';

export interface RepeatSpread {
  readonly repeats: number;
  /** Each repeat's own score, in repeat order. */
  readonly scores: readonly number[];
  readonly mean: number;
  /** Null with one repeat. */
  readonly sd: number | null;
  readonly min: number;
  readonly max: number;
}

/** An episode as the spread needs it: its game, its repeat and its score. */
export interface RepeatedScore {
  readonly game: string;
  readonly repeat: number;
  readonly score: number;
}

/** The repeat (0-based) of an episode index: repeat r of episode i is index r × episodes + i, as runner/plan.ts lays a plan out. */
export function repeatOfEpisode(index: number, episodesPerRepeat: number): number {
  return Math.floor(index / episodesPerRepeat);
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Per repeat, the mean over its games of their mean scores. Null when there is no episode. */
export function repeatSpread(episodes: readonly RepeatedScore[]): RepeatSpread | null {
  if (episodes.length === 0) return null;
  const byRepeat = new Map<number, Map<string, number[]>>();
  for (const e of episodes) {
    const games = byRepeat.get(e.repeat) ?? new Map<string, number[]>();
    games.set(e.game, [...(games.get(e.game) ?? []), e.score]);
    byRepeat.set(e.repeat, games);
  }
  const scores = [...byRepeat.entries()].sort(([a], [b]) => a - b).map(([, games]) => mean([...games.values()].map(mean)));
  return {
    repeats: scores.length,
    scores,
    mean: mean(scores),
    sd: scores.length < 2 ? null : sampleStandardDeviation(scores),
    min: Math.min(...scores),
    max: Math.max(...scores),
  };
}

/** `mean 25.80, SD 3.90, 19.10–31.20 over 5 repeats`, or the one repeat's score. */
export function describeSpread(spread: RepeatSpread): string {
  if (spread.sd === null) return `${spread.mean.toFixed(2)} from 1 repeat (no spread: add repeats)`;
  return `mean ${spread.mean.toFixed(2)}, SD ${spread.sd.toFixed(2)}, ${spread.min.toFixed(2)}–${spread.max.toFixed(2)} over ${spread.repeats} repeats`;
}
