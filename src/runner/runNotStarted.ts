/**
 * A run that could not start: the service refused the key, could not be reached, or opened no card.
 * Nothing was played, so it is not an episode failure (exit 1) but one sentence and exit 2, like a bad
 * config; when the results folder exists, run.json in it says the same.
 */
import { TransportError } from '../client/transport.ts';
import { ArcbenchError } from '../errors.ts';
import { ApiError } from '../protocol/index.ts';

export class RunNotStartedError extends ArcbenchError {
  /** The results folder, when it was created (it holds run.json with status `failed`). */
  readonly runDir: string | undefined;
  constructor(message: string, runDir?: string, options?: { cause?: unknown }) {
    super('RUN_NOT_STARTED', message, options);
    this.runDir = runDir;
  }
}

/** Whether `error` is the service's or the network's (and so says the run could not start), not a bug. */
export function isServiceFailure(error: unknown): error is ApiError | TransportError {
  return error instanceof ApiError || error instanceof TransportError;
}

/** `could not <what> at <target>: <why>; <what to do>`. */
export function notStartedMessage(what: string, target: string, error: ApiError | TransportError): string {
  return `could not ${what} at ${target}: ${error.message}${advice(error)}`;
}

function advice(error: ApiError | TransportError): string {
  if (error instanceof ApiError && error.status === 401) return '; check the API key (target.api_key, e.g. "${ARC_API_KEY}")';
  if (error instanceof ApiError && error.status === 403) return '; this key may not do that here';
  if (error instanceof TransportError && error.kind === 'unreachable') return '; check target.url, and that the service is up and reachable from here';
  return '';
}
