/**
 * The agents' decisions under way that have not answered yet, for the run's heartbeat: a model call of
 * minutes, or an agent that hangs, would otherwise leave a terminal or a CI log silent. Only a decision
 * that returns a promise is watched: a synchronous one holds the thread, and nothing could report it.
 */
export interface Decision {
  readonly agent: string;
  readonly gameId: string;
  readonly episode: number;
  readonly step: number;
  /** When it began (ms since the epoch). */
  readonly since: number;
}

export class DecisionWatch {
  readonly #waiting = new Set<Decision>();

  /** A decision began; the returned one is handed back to `ended`. */
  started(decision: Omit<Decision, 'since'>): Decision {
    const watched = { ...decision, since: Date.now() };
    this.#waiting.add(watched);
    return watched;
  }

  ended(decision: Decision): void {
    this.#waiting.delete(decision);
  }

  /** The decisions under way, oldest first. */
  waiting(): Decision[] {
    return [...this.#waiting].sort((a, b) => a.since - b.since);
  }
}
