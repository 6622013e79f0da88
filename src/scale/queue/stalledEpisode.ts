/**
 * A job that comes back after its worker died (BullMQ hands a stalled job to another worker): the
 * episode goes on from its checkpoint on the dead worker's card and session when it can, as `arcbench
 * resume` continues an episode of a dead process (episode/continueSession.ts does the
 * continuing and the last checks with the service). Workers keep checkpoints where they keep
 * recordings, in the run's folder on the shared volume: a continuation reads the recording anyway, to
 * settle an action decided before the death and to go on writing the same file, so checkpoint and
 * recording are read from one place, and a step costs no Redis round trip. A worker without a run
 * folder (no --recordings-dir) keeps none, and its stalled jobs start over, saying why. A resume
 * through the pool (`resume --queue`) sends an episode it continues the same way, naming the card it
 * took over from the dead attempt.
 */
import type { Redis } from 'ioredis';
import type { Transport } from '../../client/transport.ts';
import { continuability } from '../../episode/continuability.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import type { EpisodeCheckpoint } from '../../runfolder/checkpointFile.ts';
import { readEpisodeCheckpoint } from '../../runfolder/checkpointReading.ts';
import type { LostAttempt } from '../../runfolder/episodeRecord.ts';
import { parseCardRecords } from './cardRecord.ts';
import type { RunKeys } from './runKeys.ts';

/** How a stalled job's episode starts: on the dead worker's card from its checkpoint, or over, and why. */
export type StalledStart = { readonly continueFrom: EpisodeCheckpoint; readonly cardId: string } | { readonly restartReason: string };

export interface TakenOverCard {
  readonly card_id: string;
  readonly affinity: readonly string[];
}

export interface StalledContext {
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly transport: Transport;
  /** The run's folder on the shared volume; undefined when this worker keeps none. */
  readonly runDir: string | undefined;
}

/**
 * Decides for a job with earlier attempts, or one a resume asks to continue on the card it took over
 * (`takenOver`: a card of an earlier attempt of the run, not in this run's cards hash); the card it
 * continues on is adopted (its affinity cookies) by `transport`.
 */
export async function stalledStart(context: StalledContext, spec: EpisodeSpec, takenOver?: TakenOverCard): Promise<StalledStart> {
  if (context.runDir === undefined) {
    return { restartReason: 'this worker keeps no run folder (start workers with --recordings-dir on the volume of the run folder), so no checkpoint is read' };
  }
  const reading = readEpisodeCheckpoint(context.runDir, spec.game.game_id, spec.agent.label, spec.index);
  if (reading === 'absent') return { restartReason: 'no checkpoint of it is in the run folder (its worker died before writing one, or kept none)' };
  if ('unreadable' in reading) return { restartReason: reading.unreadable };
  const { checkpoint } = reading;
  const card =
    parseCardRecords(await context.redis.hgetall(context.keys.cards)).find((c) => c.card_id === checkpoint.card_id) ??
    (takenOver?.card_id === checkpoint.card_id ? { ...takenOver, state: 'open' as const } : undefined);
  const verdict = await continuability(checkpoint, card, { player: 'this worker', cardList: "the pool's cards", transport: context.transport });
  return 'restartReason' in verdict ? verdict : { continueFrom: verdict.continueFrom, cardId: checkpoint.card_id };
}

/**
 * The earlier attempts whose sessions were lost, given the session a continued episode goes on: those
 * before the attempt that opened it (noted before its RESET, so at or before the session's start).
 * The attempts after it continued that session, and lost nothing.
 */
export function lostBeforeSession(earlier: readonly LostAttempt[], sessionStartedAt: string): LostAttempt[] {
  const opener = earlier.findLastIndex((attempt) => attempt.started_at <= sessionStartedAt);
  return earlier.slice(0, Math.max(0, opener));
}
