/**
 * What an agent's total row of a comparison adds to its interval: the interval clustered by game (each
 * game one draw), the spread of each side across repeats, and the minimum detectable difference, under
 * which compare names no winner. Game rows have one game, so none of this applies to them.
 */
import { detectableSentence, minimumDetectableDifference } from './detectableDifference.ts';
import type { ScoredEpisode } from './episodeSample.ts';
import { CLUSTERING_WORDS, type ClusteredEstimate, studentOverGames } from './gameClustered.ts';
import { describeSpread, type RepeatSpread, repeatSpread } from './repeatSpread.ts';

export interface TotalJudgement {
  /** Student's t over the per-game differences: the interval whose unit is the game. */
  readonly clustered: ClusteredEstimate;
  /** How `clustered` was computed, in words. */
  readonly clustering: string;
  /** Repeats behind each game (the fewest of either side). */
  readonly repeats: number;
  /** Null below two games. */
  readonly minimum_detectable: number | null;
  /** The MDD as a sentence; null with it. */
  readonly detectable: string | null;
  readonly spread: { readonly baseline: RepeatSpread | null; readonly candidate: RepeatSpread | null };
}

export interface GameSides {
  readonly baseline: readonly ScoredEpisode[];
  readonly candidate: readonly ScoredEpisode[];
  /** candidate − baseline on this game (paired or not). */
  readonly difference: number;
}

const repeatsOf = (episodes: readonly ScoredEpisode[]) => new Set(episodes.map((e) => e.repeat ?? 0)).size;

const spreadOf = (episodes: readonly ScoredEpisode[]) => repeatSpread(episodes.map((e) => ({ game: e.game, repeat: e.repeat ?? 0, score: e.score })));

export function judgeTotal(games: readonly GameSides[]): TotalJudgement {
  const differences = games.map((g) => g.difference);
  const repeats = Math.min(...games.flatMap((g) => [repeatsOf(g.baseline), repeatsOf(g.candidate)]));
  const mdd = minimumDetectableDifference(differences);
  return {
    clustered: studentOverGames(differences),
    clustering: CLUSTERING_WORDS['student-t'],
    repeats,
    minimum_detectable: mdd,
    detectable: mdd === null ? null : detectableSentence(mdd, games.length, repeats),
    spread: { baseline: spreadOf(games.flatMap((g) => g.baseline)), candidate: spreadOf(games.flatMap((g) => g.candidate)) },
  };
}

/** Below the MDD a difference is not called a win or a loss (with one game no MDD is known, and a note says so). */
export function tooCloseToCall(difference: number, judgement: TotalJudgement): boolean {
  return judgement.minimum_detectable !== null && Math.abs(difference) < judgement.minimum_detectable;
}

/** The sentences under a total row: the refusal (when too close to call), the clustered interval, the spread across repeats. */
export function judgementNotes(agent: string, difference: number, verdict: string, judgement: TotalJudgement): string[] {
  const f = (v: number) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(2)}`;
  const notes: string[] = [];
  if (verdict === 'too close to call') {
    notes.push(
      `${agent}: no winner named: the difference ${f(difference)} is under the minimum detectable difference (${judgement.detectable}); add repeats or games to tell`,
    );
  } else if (verdict === 'worse' && tooCloseToCall(difference, judgement)) {
    notes.push(
      `${agent}: worse on these games, and the gate counts it, but by less than the minimum detectable difference (${judgement.detectable}): whether it holds on other games, this run cannot tell`,
    );
  } else if (judgement.detectable !== null) {
    notes.push(`${agent}: ${judgement.detectable}`);
  } else {
    notes.push(`${agent}: one game only: no minimum detectable difference can be known, and the difference says nothing of other games`);
  }
  const c = judgement.clustered;
  if (c.interval !== null)
    notes.push(`${agent}: difference ${judgement.clustering}: ${f(c.value)} [${f(c.interval.low)}, ${f(c.interval.high)}] over ${c.games} games`);
  const { baseline, candidate } = judgement.spread;
  if (judgement.repeats > 1 && baseline !== null && candidate !== null) {
    notes.push(`${agent}: across repeats: baseline ${describeSpread(baseline)}; candidate ${describeSpread(candidate)}`);
  }
  return notes;
}
