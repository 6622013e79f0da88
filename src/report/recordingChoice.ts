/**
 * Which recordings a report embeds. All of them when they fit; for a big run, first the best and the
 * worst episode of every agent on every game (the two a reader looks at first), then the others in
 * episode order while the page stays under its size budget.
 */
import { type EpisodeRow, PLAYED_AGAIN } from './pageData.ts';

/** Compressed recording bytes a page carries beyond the always-embedded best and worst episodes. */
export const EMBED_BUDGET_BYTES = 8 * 1024 * 1024;

/** Recordings (paths inside the run folder) in the order they are embedded, and how many must be. */
export function recordingPriority(episodes: readonly EpisodeRow[]): { ordered: string[]; required: number } {
  const withRecording = episodes.filter((e) => e.recording !== null);
  const groups = new Map<string, EpisodeRow[]>();
  // The best and worst of what counts: not a record a resume played again.
  for (const episode of withRecording.filter((e) => e.outcome !== PLAYED_AGAIN)) {
    const key = `${episode.agent}\u0000${episode.game_id}`;
    groups.set(key, [...(groups.get(key) ?? []), episode]);
  }
  const first = new Set<string>();
  for (const group of groups.values()) {
    // Every group holds at least the episode that made it.
    const ranked = [...group].sort(better);
    first.add(ranked[0]!.recording!);
    first.add(ranked[ranked.length - 1]!.recording!);
  }
  const rest = withRecording.map((e) => e.recording!).filter((path) => !first.has(path));
  return { ordered: [...first, ...rest], required: first.size };
}

/** Best first: higher score, then more levels, then fewer actions, then the earlier episode. */
function better(a: EpisodeRow, b: EpisodeRow): number {
  return (b.score ?? 0) - (a.score ?? 0) || b.levels_completed - a.levels_completed || a.actions - b.actions || a.episode - b.episode;
}
