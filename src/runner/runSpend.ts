/**
 * The run's dollar budget (`budgets.max_run_cost_usd`). Every model call of every episode, finished or
 * in flight, adds to the run's spend as it is reported; once the budget is spent no new episode starts,
 * the episodes in flight play to their end (their own `max_cost_usd` bounds them), the cards close, and
 * the run's status is `partial`.
 */
import type { Logger } from 'pino';
import type { ModelCallRecord } from '../agent/usage.ts';
import { RUN_DOLLARS_SPENT } from '../episode/budgets.ts';

export class RunSpend {
  #dollars = 0;
  #spent = false;
  readonly #limit: number | undefined;
  readonly #logger: Logger;
  readonly #onSpent: () => void;

  constructor(limit: number | undefined, logger: Logger, onSpent: () => void) {
    this.#limit = limit;
    this.#logger = logger;
    this.#onSpent = onSpent;
  }

  /** True once the run has spent its budget: no episode may start. */
  get spent(): boolean {
    return this.#spent;
  }

  add(call: ModelCallRecord): void {
    this.addDollars(call.cost_usd);
  }

  /** Dollars spent, one call's or (in a worker pool, where the coordinator sees whole episodes) one episode's. */
  addDollars(dollars: number | null): void {
    // A call of unknown cost fails its own episode (budgets.ts says why); it cannot move this total.
    if (dollars === null) return;
    this.#dollars += dollars;
    if (this.#limit === undefined || this.#spent || this.#dollars < this.#limit) return;
    this.#spent = true;
    this.#logger.warn({ max_run_cost_usd: this.#limit, spent_usd: this.#dollars }, RUN_DOLLARS_SPENT);
    this.#onSpent();
  }
}
