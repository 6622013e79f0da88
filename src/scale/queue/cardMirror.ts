/**
 * The workers' cards, mirrored from Redis into the run's journal (run.json) as they open and close:
 * run.json lists every card of every worker while the run plays, also those of a worker that dies.
 */
import type { Redis } from 'ioredis';
import type { CardEvents, ClosedCard } from '../../runner/scorecards.ts';
import { type CardRecord, parseCardRecords } from './cardRecord.ts';
import type { RunKeys } from './runKeys.ts';

export class CardMirror {
  readonly #redis: Redis;
  readonly #keys: RunKeys;
  readonly #events: CardEvents | undefined;
  /** State of each card as last told to the journal. */
  readonly #told = new Map<string, CardRecord['state']>();
  #cards: CardRecord[] = [];

  constructor(redis: Redis, keys: RunKeys, events: CardEvents | undefined) {
    this.#redis = redis;
    this.#keys = keys;
    this.#events = events;
  }

  /** Reads the cards hash and tells the journal what changed since the last read. */
  async sync(): Promise<void> {
    this.#cards = parseCardRecords(await this.#redis.hgetall(this.#keys.cards));
    for (const card of this.#cards) {
      if (!this.#told.has(card.card_id)) {
        this.#events?.opened(card.agent, card.card_id, card.affinity, { worker: card.worker, target: card.target });
        this.#told.set(card.card_id, 'open');
      }
      if (card.state !== 'open' && this.#told.get(card.card_id) === 'open') {
        const result: ClosedCard = { scorecard: card.scorecard, error: card.close_error };
        this.#events?.closed(card.agent, card.card_id, result);
        this.#told.set(card.card_id, card.state);
      }
    }
  }

  /** Every card read so far, in the order they opened. */
  get cards(): readonly CardRecord[] {
    return this.#cards;
  }
}
