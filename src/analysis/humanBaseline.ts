/**
 * An agent's actions against the human baseline: each game's level baselines are the actions a human
 * needed (built-in games carry them; official games' metadata.json too). Summed over a game's levels they
 * are what a human spends on the whole game, so actions ÷ that sum says how many humans' worth of
 * actions the agent spent, solved or not. And what a solved level cost in dollars.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';

type BaselineRecord = Pick<EpisodeRecord, 'actions' | 'baselines' | 'baselines_known'>;

/**
 * Counted actions as a share of the summed human baseline of the same episodes' games (1 = as many
 * actions as a human needs for every level); null when some game's baselines are unknown.
 */
export function baselineShare(episodes: readonly BaselineRecord[]): number | null {
  if (episodes.length === 0 || episodes.some((e) => e.baselines_known === false)) return null;
  const human = episodes.reduce((sum, e) => sum + e.baselines.reduce((a, b) => a + b, 0), 0);
  if (human === 0) return null;
  return episodes.reduce((sum, e) => sum + e.actions, 0) / human;
}

/** Dollars per level completed; null when the cost is unknown or no level was completed (nothing to divide by). */
export function costPerLevel(costUsd: number | null, levelsCompleted: number): number | null {
  return costUsd === null || levelsCompleted === 0 ? null : costUsd / levelsCompleted;
}
