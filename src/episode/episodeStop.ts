/**
 * The signal an episode's agent is given: aborted when the run stops (interrupt, run wall time) and when
 * the episode's own wall time is up. A model call in flight is abandoned at the deadline, not after it;
 * and an agent that ignores the signal is cut all the same, since the runner stops waiting for it.
 */
import type { EpisodeOutcome } from '../agent/contract.ts';

/** The episode was cut while its agent was deciding; the outcome is the stop's. */
export class EpisodeCut extends Error {
  /** The agent's call that was cut: `create()` or `act()`. */
  readonly call: string;
  constructor(call: string) {
    super(`the episode was cut while the agent's ${call} was under way`);
    this.name = 'EpisodeCut';
    this.call = call;
  }
}

/**
 * Its AbortController is made when someone asks for the signal (an agent that reads it, a call that is
 * raced), not for every episode: most agents decide synchronously and never look, and the controller,
 * its listener on the run's signal and its timer were ~2% of an in-process run.
 */
export class EpisodeStop {
  readonly #run: AbortSignal;
  readonly #runOutcome: () => EpisodeOutcome;
  #deadline: number;
  #controller: AbortController | undefined;
  readonly #onRunStop = () => this.#controller?.abort();
  #timer: NodeJS.Timeout | undefined;

  constructor(run: AbortSignal, runOutcome: () => EpisodeOutcome, deadline: number) {
    this.#run = run;
    this.#runOutcome = runOutcome;
    this.#deadline = deadline;
  }

  /** Whether the episode is to stop now: the run stopped, or its deadline passed. */
  get aborted(): boolean {
    return this.#run.aborted || this.#timedOut;
  }

  get signal(): AbortSignal {
    this.#controller ??= this.#watch();
    return this.#controller.signal;
  }

  /** Why the episode was cut: its own wall time (`time`), or the run's reason. */
  get outcome(): EpisodeOutcome {
    return this.#timedOut && !this.#run.aborted ? 'time' : this.#runOutcome();
  }

  get #timedOut(): boolean {
    return this.#deadline !== Infinity && Date.now() >= this.#deadline;
  }

  /** A controller aborted with the run, or at the deadline, whichever comes first. */
  #watch(): AbortController {
    const controller = new AbortController();
    if (this.aborted) {
      controller.abort();
      return controller;
    }
    this.#run.addEventListener('abort', this.#onRunStop, { once: true });
    if (this.#deadline !== Infinity) this.#timer = setTimeout(() => controller.abort(), Math.max(0, this.#deadline - Date.now()));
    return controller;
  }

  /**
   * The agent's promise, or an EpisodeCut as soon as the signal fires. A rejection that comes after
   * the cut is caught here, so an abandoned agent call never becomes an unhandled rejection.
   */
  race<T>(promise: PromiseLike<T>, call: string): Promise<T> {
    const signal = this.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new EpisodeCut(call));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          // An agent that gave up because of the signal (an aborted request) was cut, it did not fail.
          reject(signal.aborted ? new EpisodeCut(call) : error);
        },
      );
    });
  }

  /** A later deadline (the episode's own, once a first-action deadline is met); a signal already made follows it. */
  moveDeadline(deadline: number): void {
    if (deadline === this.#deadline) return;
    this.#deadline = deadline;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const controller = this.#controller;
    if (controller !== undefined && !controller.signal.aborted && deadline !== Infinity) {
      this.#timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
    }
  }

  dispose(): void {
    if (this.#controller === undefined) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#run.removeEventListener('abort', this.#onRunStop);
  }
}
