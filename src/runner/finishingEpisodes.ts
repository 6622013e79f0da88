/**
 * Episodes whose play is over and whose recording is still being written (playEpisode): each one's
 * completion is tracked here, so the run waits for all of them before it ends, and so play runs only
 * so far ahead of the results (a run stopped or killed has few played episodes not yet in them). A
 * completion that fails (its record could not be added) is handled at once, since an unhandled
 * rejection would end the process, and thrown when the run waits for them.
 */
export class FinishingEpisodes {
  readonly #pending = new Set<Promise<void>>();
  #failed: { error: unknown } | undefined;
  #waiting: { most: number; resolve: () => void }[] = [];

  track(completion: Promise<void>): void {
    this.#pending.add(completion);
    const settled = () => {
      this.#pending.delete(completion);
      this.#wake();
    };
    completion.then(settled, (error: unknown) => {
      this.#failed ??= { error };
      settled();
    });
  }

  /** Resolves once at most `most` episodes are still finishing. */
  atMost(most: number): Promise<void> {
    if (this.#pending.size <= most) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ most, resolve }));
  }

  /** Resolves once every tracked episode is complete; rejects with the first failure. */
  async all(): Promise<void> {
    await this.atMost(0);
    if (this.#failed !== undefined) throw this.#failed.error;
  }

  #wake(): void {
    const size = this.#pending.size;
    const ready = this.#waiting.filter((waiter) => size <= waiter.most);
    this.#waiting = this.#waiting.filter((waiter) => size > waiter.most);
    for (const waiter of ready) waiter.resolve();
  }
}
