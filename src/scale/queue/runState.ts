/**
 * Where a queued run is, as the coordinator sets it and workers poll it: `running`; `stopping` with the
 * outcome in-flight episodes end with (`cancelled` when the user interrupted the coordinator, `time`
 * when the run's wall time is spent), while workers stop their episodes at the next step; `ended`,
 * when workers close their cards and leave.
 */
import type { Redis } from 'ioredis';
import type { EpisodeOutcome } from '../../agent/contract.ts';
import type { RunKeys } from './runKeys.ts';

export type RunState = { readonly phase: 'running' } | { readonly phase: 'stopping'; readonly outcome: EpisodeOutcome } | { readonly phase: 'ended' };

export async function readRunState(redis: Redis, keys: RunKeys): Promise<RunState> {
  const text = await redis.get(keys.state);
  if (text === 'running') return { phase: 'running' };
  if (text?.startsWith('stopping:')) return { phase: 'stopping', outcome: text.slice('stopping:'.length) as EpisodeOutcome };
  // Missing (the keys expired or were removed) counts as ended: nothing more to play.
  return { phase: 'ended' };
}

export async function writeRunState(redis: Redis, keys: RunKeys, state: RunState): Promise<void> {
  await redis.set(keys.state, state.phase === 'stopping' ? `stopping:${state.outcome}` : state.phase);
}
