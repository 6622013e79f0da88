/**
 * Where the HTTP transport's own log lines go (a field the service left out, a retry): the run's
 * run.log. The target, and with it the transport, opens before the run folder and its log exist, so
 * the warnings of those first requests (the game list) wait here until the log is attached.
 */
import type { Logger } from 'pino';
import type { TransportLogger } from '../client/httpTransport.ts';

export class TransportLog implements TransportLogger {
  #logger: Logger | undefined;
  readonly #waiting: Array<[object, string]> = [];

  attach(logger: Logger): void {
    this.#logger = logger;
    for (const [fields, message] of this.#waiting.splice(0)) logger.warn(fields, message);
  }

  warn(fields: object, message: string): void {
    if (this.#logger === undefined) this.#waiting.push([fields, message]);
    else this.#logger.warn(fields, message);
  }

  /** Retries and the like: only once the log is attached (the first requests' are not worth keeping). */
  debug(fields: object, message: string): void {
    this.#logger?.debug(fields, message);
  }
}
