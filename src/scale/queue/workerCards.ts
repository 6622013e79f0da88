/**
 * A worker's scorecards in one run: one per agent, opened when the worker first plays an episode of
 * that agent, and closed when the run ends (or the worker leaves it). Each card is written to the
 * run's `cards` hash as it opens and as it closes, so the coordinator lists it in run.json even when
 * this worker dies with the card open.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Transport } from '../../client/transport.ts';
import type { ExperimentConfig } from '../../runner/config/schema.ts';
import { closeCards, openCards } from '../../runner/scorecards.ts';
import type { CardRecord } from './cardRecord.ts';
import type { RunKeys } from './runKeys.ts';

export interface WorkerCardsOptions {
  readonly transport: Transport;
  readonly settings: ExperimentConfig['scorecard'];
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly worker: string;
  readonly target: string;
  readonly logger: Logger;
}

export class WorkerCards {
  readonly #options: WorkerCardsOptions;
  /** label → its card's id, while opening and once open. */
  readonly #cards = new Map<string, Promise<string>>();
  readonly #records = new Map<string, CardRecord>();

  constructor(options: WorkerCardsOptions) {
    this.#options = options;
  }

  /** The agent's card on this worker, opened on first use; a failed open is tried again by the next episode. */
  cardFor(label: string): Promise<string> {
    let card = this.#cards.get(label);
    if (card === undefined) {
      card = this.#open(label);
      card.catch(() => this.#cards.delete(label));
      this.#cards.set(label, card);
    }
    return card;
  }

  async #open(label: string): Promise<string> {
    const { transport, settings, logger } = this.#options;
    const opened = new Map<string, string>();
    await openCards(transport, [label], settings, opened, logger);
    const cardId = opened.get(label)!;
    const affinity = (transport as { affinityCookies?(cardId: string): string[] }).affinityCookies?.(cardId) ?? [];
    const record: CardRecord = {
      card_id: cardId,
      agent: label,
      worker: this.#options.worker,
      target: this.#options.target,
      opened_at: new Date().toISOString(),
      state: 'open',
      closed_at: null,
      scorecard: null,
      close_error: null,
      affinity,
    };
    this.#records.set(cardId, record);
    await this.#write(record);
    return cardId;
  }

  /** Closes every card this worker opened in the run; a close that fails is written as such, never thrown. */
  async closeAll(): Promise<void> {
    const open = new Map<string, string>();
    for (const [label, card] of this.#cards) {
      const cardId = await card.catch(() => undefined);
      if (cardId !== undefined) open.set(label, cardId);
    }
    this.#cards.clear();
    const closed = await closeCards(this.#options.transport, open, this.#options.logger);
    for (const [label, result] of closed) {
      const record = this.#records.get(open.get(label)!)!;
      Object.assign(record, {
        state: result.scorecard ? 'closed' : 'close_failed',
        closed_at: result.scorecard ? new Date().toISOString() : null,
        scorecard: result.scorecard,
        close_error: result.error,
      } satisfies Partial<CardRecord>);
      await this.#write(record);
    }
  }

  async #write(record: CardRecord): Promise<void> {
    await this.#options.redis.hset(this.#options.keys.cards, record.card_id, JSON.stringify(record));
  }
}
