/**
 * Whether an episode in flight when its process died can go on from its checkpoint, on its own
 * session: one check, in the same sentences, for `arcbench resume` (runner/resume/continuations.ts)
 * and the worker pool (scale/queue/stalledEpisode.ts). What the run's own files tell is asked first;
 * then the service, whether the card is still open. The last checks (the session, its counts, the
 * recording) are made by the continuation itself (continueSession.ts), on the session.
 */
import type { Transport } from '../client/transport.ts';
import { ApiError } from '../protocol/index.ts';
import type { EpisodeCheckpoint, StoredCheckpoint } from '../runfolder/checkpointFile.ts';

/** A card as the run lists it (run.json, or the pool's cards in Redis). */
export interface ListedCard {
  readonly card_id: string;
  readonly affinity: readonly string[];
  readonly state: string;
}

export interface ContinuabilityContext {
  /** Who would continue it, for the sentences: "this attempt", "this worker". */
  readonly player: string;
  /** Where the run lists its cards, for the sentence when its card is not there: "run.json", "the pool's cards". */
  readonly cardList: string;
  /** The transport it would continue on: its target must be the checkpoint's; it adopts the card's affinity. */
  readonly transport: Transport;
  /** Why nothing can be continued this time (competition cards, a resume through the pool…), or undefined. */
  readonly disabled?: string | undefined;
}

/** The checkpoint to continue from and the card's last update, or why the episode starts over. */
export type Continuability = { readonly continueFrom: EpisodeCheckpoint; readonly lastUpdate: string | undefined } | { readonly restartReason: string };

/** Why the checkpoint's session cannot be continued, as far as the run's own files tell; undefined: ask the service. */
export function notContinuableHere(checkpoint: StoredCheckpoint, card: ListedCard | undefined, context: ContinuabilityContext): string | undefined {
  if (!checkpoint.continuable) return checkpoint.not_continuable ?? 'its session cannot be continued';
  if (context.disabled !== undefined) return context.disabled;
  if (checkpoint.target !== context.transport.target) {
    return `its session is on ${checkpoint.target}, and ${context.player} plays on ${context.transport.target}`;
  }
  if (card === undefined) return `its card ${checkpoint.card_id} is not among ${context.cardList}`;
  if (card.state !== 'open') return `its card ${checkpoint.card_id} is ${card.state.replace('_', ' ')}`;
  return undefined;
}

/** The whole check for one checkpoint: the run's files, then the service. */
export async function continuability(checkpoint: StoredCheckpoint, card: ListedCard | undefined, context: ContinuabilityContext): Promise<Continuability> {
  const why = notContinuableHere(checkpoint, card, context);
  if (why !== undefined || !checkpoint.continuable) return { restartReason: why ?? 'its session cannot be continued' };
  const open = await cardStillOpen(card!, context.transport);
  return typeof open === 'string' ? { restartReason: open } : { continueFrom: checkpoint, lastUpdate: open.lastUpdate };
}

/** The card's last update when the service still has it open; else why it cannot be continued. `transport` adopts its affinity. */
export async function cardStillOpen(
  card: { readonly card_id: string; readonly affinity: readonly string[] },
  transport: Transport,
): Promise<{ lastUpdate: string | undefined } | string> {
  transport.adoptAffinity?.(card.card_id, card.affinity);
  try {
    const answer = await transport.getScorecard(card.card_id);
    if (answer.published_at != null) return `the service closed its card ${card.card_id} at ${answer.published_at}`;
    return { lastUpdate: answer.last_update ?? undefined };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return `the service no longer knows its card ${card.card_id} (closed idle, or expired)`;
    return `its card ${card.card_id} could not be read from the service (${(error as Error).message})`;
  }
}
