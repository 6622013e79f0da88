/**
 * Requests a fake server holds without an answer ("an answer that never comes"): each is let go when
 * its client closes the connection, or all at once when the server closes.
 */
import type { Socket } from 'node:net';

export class HangingRequests {
  readonly #waiting = new Set<() => void>();

  get size(): number {
    return this.#waiting.size;
  }

  /** Resolves once the request's connection closes, or at releaseAll(). */
  hold(socket: Socket): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.add(resolve);
      socket.once('close', () => {
        this.#waiting.delete(resolve);
        resolve();
      });
    });
  }

  releaseAll(): void {
    for (const release of this.#waiting) release();
  }
}
