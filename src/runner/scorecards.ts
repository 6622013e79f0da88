/** One scorecard per agent: opened before the first episode, and always closed, whatever happened. */
import type { Logger } from 'pino';
import type { Transport } from '../client/transport.ts';
import type { Scorecard } from '../protocol/index.ts';
import type { ExperimentConfig } from './config/schema.ts';

/** Told of every card as it opens and closes (the run journal writes run.json on each). */
export interface CardEvents {
  /**
   * `affinity`: the card's load-balancer cookies, to reach its backend from another process later.
   * `where`: for a card a worker of the pool opened, that worker and the target as it saw it.
   */
  opened(label: string, cardId: string, affinity: readonly string[], where?: { worker: string; target: string }): void;
  closed(label: string, cardId: string, result: ClosedCard): void;
  /** A card nothing can close any more (it lived in a worker's in-process service, and the worker died). */
  lost?(label: string, cardId: string, why: string): void;
}

export interface ClosedCard {
  /** The scorecard as the service returned it on close; null when closing failed. */
  readonly scorecard: Scorecard | null;
  readonly error: string | null;
}

/** Opens a card per label; the cards opened so far are in `cards` even when a later open fails. */
export async function openCards(
  transport: Transport,
  labels: readonly string[],
  settings: ExperimentConfig['scorecard'],
  cards: Map<string, string>,
  logger: Logger,
  events?: CardEvents,
): Promise<void> {
  for (const label of labels) {
    const tags = [...new Set([...settings.tags, 'agent', label])];
    const cardId = await transport.openScorecard({
      tags,
      ...(settings.source_url === undefined ? {} : { source_url: settings.source_url }),
      ...(settings.opaque === undefined ? {} : { opaque: settings.opaque }),
    });
    cards.set(label, cardId);
    logger.info({ agent: label, card_id: cardId, tags }, 'scorecard opened');
    events?.opened(label, cardId, transport.affinityCookies?.(cardId) ?? []);
  }
}

/** Closes every card; a close that fails is recorded, never thrown, so the others still close. */
export async function closeCards(
  transport: Transport,
  cards: ReadonlyMap<string, string>,
  logger: Logger,
  events?: CardEvents,
): Promise<Map<string, ClosedCard>> {
  const closed = new Map<string, ClosedCard>();
  for (const [label, cardId] of cards) {
    let result: ClosedCard;
    try {
      const scorecard = await transport.closeScorecard(cardId);
      result = { scorecard, error: null };
      logger.info({ agent: label, card_id: cardId, score: scorecard.score }, 'scorecard closed');
    } catch (error) {
      result = { scorecard: null, error: (error as Error).message };
      logger.error({ agent: label, card_id: cardId, error: (error as Error).message }, 'closing the scorecard failed');
    }
    closed.set(label, result);
    events?.closed(label, cardId, result);
  }
  return closed;
}
