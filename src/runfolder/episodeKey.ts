/**
 * An episode's key: agent label, game id, episode index. What resume, shards, the worker pool's job
 * ids, merge and compare match episodes on; built here and nowhere else.
 */
import type { EpisodeRecord } from './episodeRecord.ts';

/** Joined with NUL, which no label (letters, digits, `._-`) or game id holds, so two keys never run together. */
export function episodeKey(agent: string, gameId: string, episode: number): string {
  return `${agent}\u0000${gameId}\u0000${episode}`;
}

/** The key of a planned episode (an EpisodeSpec or anything shaped like one). */
export function keyOfSpec(spec: { readonly agent: { readonly label: string }; readonly game: { readonly game_id: string }; readonly index: number }): string {
  return episodeKey(spec.agent.label, spec.game.game_id, spec.index);
}

export function keyOfRecord(record: Pick<EpisodeRecord, 'agent' | 'game_id' | 'episode'>): string {
  return episodeKey(record.agent, record.game_id, record.episode);
}

/** The key in words, for messages: `episode 3 of random on ls20-1a2b3c4d`. */
export function describeEpisodeKey(key: string): string {
  const [agent, gameId, episode] = key.split('\u0000');
  return `episode ${episode} of ${agent} on ${gameId}`;
}
