/**
 * How the episodes of one agent on one game pair up across two runs. Episodes pair by key (agent label,
 * game, episode index) when both runs hold the same indices with the same episode seeds: the same
 * config and seed replay the same episodes, so a difference within a pair is the change alone. Anything
 * else is compared as two independent samples, and the note says why.
 */
import { differenceOfMeansStratum, meanStratum, type Stratum } from './bootstrap.ts';
import type { ScoredEpisode } from './episodeSample.ts';

/** Scores closer than this are the same score (the scoring code is deterministic; this absorbs rounding). */
const SAME_SCORE = 1e-9;

export interface GamePairing {
  readonly paired: boolean;
  /** Why the episodes could not be paired; null when paired. */
  readonly note: string | null;
  /** Paired, and every pair scored the same. */
  readonly identical: boolean;
  readonly stratum: Stratum;
}

function unpairedReason(baseline: readonly ScoredEpisode[], candidate: readonly ScoredEpisode[]): string | null {
  const indices = (list: readonly ScoredEpisode[]) => list.map((e) => e.episode);
  if (new Set(indices(baseline)).size !== baseline.length || new Set(indices(candidate)).size !== candidate.length) {
    return 'an episode index appears twice in one run';
  }
  if (baseline.length !== candidate.length || baseline.some((e, i) => e.episode !== candidate[i]?.episode)) {
    return `different episodes (baseline ${baseline.length}, candidate ${candidate.length})`;
  }
  if (baseline.some((e, i) => e.seed !== candidate[i]?.seed)) return 'episode seeds differ (another run seed or agent label)';
  return null;
}

/** Pairs two lists of one agent's episodes of one game, each sorted by episode index and non-empty. */
export function pairGame(baseline: readonly ScoredEpisode[], candidate: readonly ScoredEpisode[]): GamePairing {
  const note = unpairedReason(baseline, candidate);
  if (note !== null) {
    return {
      paired: false,
      note,
      identical: false,
      stratum: differenceOfMeansStratum(
        baseline.map((e) => e.score),
        candidate.map((e) => e.score),
      ),
    };
  }
  // Paired: both lists have the same episodes, index for index.
  const differences = baseline.map((e, i) => candidate[i]!.score - e.score);
  return {
    paired: true,
    note: null,
    identical: differences.every((d) => Math.abs(d) <= SAME_SCORE),
    stratum: meanStratum(differences),
  };
}
