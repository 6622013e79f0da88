/**
 * Why and when a run stops early: the user's interrupt (SIGINT/SIGTERM through the caller's signal) or
 * the run's wall-time budget. One AbortSignal reaches every episode; `reason` tells them which it was.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { EpisodeOutcome } from '../agent/contract.ts';
import { RUN_TIME_SPENT } from '../episode/budgets.ts';

export class RunStop {
  readonly #controller = new AbortController();
  #reason: EpisodeOutcome = 'cancelled';
  #timer: NodeJS.Timeout | undefined;
  readonly #external: AbortSignal | undefined;
  readonly #onExternal = () => this.stop('cancelled');

  constructor(external: AbortSignal | undefined, runSeconds: number | undefined, logger: Logger) {
    // Every episode in flight listens (its own stop is linked to this one): as many as the concurrency.
    setMaxListeners(0, this.#controller.signal);
    this.#external = external;
    if (external?.aborted) this.stop('cancelled');
    external?.addEventListener('abort', this.#onExternal, { once: true });
    if (runSeconds !== undefined) {
      this.#timer = setTimeout(() => {
        logger.warn({ run_seconds: runSeconds }, RUN_TIME_SPENT);
        this.stop('time');
      }, runSeconds * 1000);
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The outcome of an episode cut by this stop. */
  get reason(): EpisodeOutcome {
    return this.#reason;
  }

  /** True when the user interrupted the run (not when its wall time ran out). */
  get interrupted(): boolean {
    return this.#external?.aborted === true;
  }

  stop(reason: EpisodeOutcome): void {
    if (this.#controller.signal.aborted) return;
    this.#reason = reason;
    this.#controller.abort();
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#external?.removeEventListener('abort', this.#onExternal);
  }
}
