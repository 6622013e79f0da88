/**
 * The URL of an episode, and of a step in it: `#episode=<agent>/<game>/<n>&step=<k>`. An old record a
 * resume played again (or a recording a killed run left) shares its key with the episode's current
 * record, so its key says which it is: `…/<n>/attempt-<a>`, `…/<n>/unfinished`.
 */
import { type EpisodeRow, PLAYED_AGAIN, UNFINISHED } from '../pageData.ts';

export function episodeKey(row: EpisodeRow): string {
  const base = `${row.agent}/${row.game_id}/${row.episode}`;
  if (row.outcome === PLAYED_AGAIN) return `${base}/attempt-${row.attempt ?? '?'}`;
  if (row.outcome === UNFINISHED) return `${base}/unfinished`;
  return base;
}

/** The fragment (without `#`) that opens `row`, at `step` when given. */
export function linkTo(row: EpisodeRow, step?: number): string {
  const key = episodeKey(row).split('/').map(encodeURIComponent).join('/');
  return `episode=${key}${step === undefined ? '' : `&step=${step}`}`;
}

/** The episode key and step a fragment names, or undefined when it names no episode. */
export function readLink(hash: string): { episode: string; step?: number } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const episode = params.get('episode');
  if (episode === null || episode === '') return undefined;
  const step = Number(params.get('step'));
  return params.has('step') && Number.isInteger(step) && step >= 0 ? { episode, step } : { episode };
}
