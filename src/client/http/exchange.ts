/**
 * One request with its retries: rate-limit slot, attempt, classify, wait, again. Returns what the
 * request's `read` made of the 2xx answer; throws ApiError for an error answer it may not (or can no
 * longer) retry, TransportError `ambiguous` when a request it may not repeat may have landed,
 * TransportError `unreachable` when the service could not be reached, and the `read`'s own
 * TransportError (`protocol`) at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiError } from '../../protocol/index.ts';
import { TransportError } from '../transport.ts';
import { apiErrorFromAnswer } from './answerBody.ts';
import type { OriginRateLimiter } from './originRateLimiter.ts';
import type { RetryCause, RetryPolicy } from './retryPolicy.ts';
import { parseRetryAfter, retryDelayMs } from './retryPolicy.ts';
import { AttemptFailure, AttemptInterrupted, sendOnce } from './sendOnce.ts';
import type { Answer, AttemptRequest, AttemptSettings } from './sendOnce.ts';

/**
 * What may be repeated once an attempt may have reached the service (a 5xx, a timeout, a reset after
 * sending); a 429 or a connection that never opened is retried under every rule.
 * - `safe`: reads and close (a repeated close finds the card closed, and the transport reads it).
 * - `once`: scorecard open. Each open whose answer is lost may leave an empty card open on the
 *   service, so it is repeated once at most.
 * - `pinned`: RESET and actions (not idempotent), and an open in competition mode (a second open is
 *   refused while the first card is open): never repeated. `notRepeated` says why, to the user.
 */
export type ReplayRule = { kind: 'safe' } | { kind: 'once' } | { kind: 'pinned'; notRepeated: string };

export const SAFE: ReplayRule = { kind: 'safe' };
export const ONCE: ReplayRule = { kind: 'once' };
export const ACTION: ReplayRule = {
  kind: 'pinned',
  notRepeated: 'actions are not idempotent; end this episode, or read the scorecard to see whether the action was counted',
};

export interface ExchangeRequest<T> extends AttemptRequest<T> {
  replay: ReplayRule;
  /** What is being done, for messages: `ACTION6 on session … of ls20-…`. */
  what: string;
}

export interface ExchangeSettings extends AttemptSettings {
  /** The signal that interrupts the exchanges starting now (HttpTransport.interrupt replaces it). */
  interruption: () => AbortSignal;
  policy: RetryPolicy;
  limiter: OriginRateLimiter | undefined;
  onAttempt: () => void;
  onRetry: (cause: RetryCause) => void;
  log: (message: string, fields: Record<string, unknown>) => void;
  random?: () => number;
}

export interface ExchangeTrace {
  /** Attempts that failed after they may have reached the service (the last one included). */
  mayHaveLanded: number;
}

/** Gateway answers: the gateway may have forwarded the request before failing. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** An attempt that did not give a 2xx answer: whether to retry it, and what it says of delivery. */
interface FailedAttempt {
  /** Undefined when no rule retries it (an error answer other than 429 and 5xx). */
  cause: RetryCause | undefined;
  /** The attempt may have reached the service and been acted on. */
  mayHaveLanded: boolean;
  /**
   * The service itself answered 500: for an action that means it was not accepted (a gateway's 502-504
   * proves nothing); for an open or close it is no proof, so those count it as may-have-landed.
   */
  serviceFailed: boolean;
  retryAfterMs?: number;
  /** What happened, for an `ambiguous` error. */
  happened: string;
  /** The error to throw when the attempt is not retried. */
  error: () => Error;
}

/**
 * One request with its retries. An interruption (the signal current when it started) cuts a rate-limit
 * wait, an attempt in flight (closing its connection) or a retry wait short: TransportError `interrupted`.
 */
export async function exchange<T>(settings: ExchangeSettings, request: ExchangeRequest<T>, trace: ExchangeTrace = { mayHaveLanded: 0 }): Promise<T> {
  const signal = settings.interruption();
  try {
    return await exchangeUntilDone(settings, request, trace, signal);
  } catch (error) {
    if (signal.aborted && (error instanceof AttemptInterrupted || (error as Error)?.name === 'AbortError')) {
      throw new TransportError('interrupted', `${request.what}: interrupted while in flight (the run is stopping); it may or may not have been applied`, {
        cause: error,
      });
    }
    throw error;
  }
}

async function exchangeUntilDone<T>(settings: ExchangeSettings, request: ExchangeRequest<T>, trace: ExchangeTrace, signal: AbortSignal): Promise<T> {
  let waitedMs = 0;
  for (let retry = 0; ; retry++) {
    signal.throwIfAborted();
    await settings.limiter?.acquire(signal);
    settings.onAttempt();
    let failed: FailedAttempt;
    try {
      const answer = await sendOnce(settings, request, signal);
      if (answer.status >= 200 && answer.status < 300) return answer.value as T;
      failed = failedAnswer(answer, request.what);
    } catch (error) {
      if (!(error instanceof AttemptFailure)) throw error;
      failed = failedConnection(error, settings.origin, request.what, retry);
    }
    if (failed.cause === undefined) throw failed.error();
    if (failed.mayHaveLanded) trace.mayHaveLanded++;
    const { replay } = request;
    if (failed.mayHaveLanded && replay.kind === 'pinned') {
      throw failed.serviceFailed ? failed.error() : ambiguous(request.what, failed.happened, replay.notRepeated, failed.error());
    }
    if (failed.mayHaveLanded && replay.kind === 'once' && trace.mayHaveLanded > 1) {
      throw ambiguous(
        request.what,
        failed.happened,
        'each open whose answer is lost may leave an empty card open on the service, so an open is repeated once at most',
        failed.error(),
      );
    }
    const delay = retryDelayMs(settings.policy, retry, waitedMs, failed.retryAfterMs, settings.random);
    if (delay === undefined) throw failed.error();
    settings.onRetry(failed.cause);
    settings.log('retrying', { what: request.what, cause: failed.cause, retry: retry + 1, delayMs: delay });
    waitedMs += delay;
    await sleep(delay, undefined, { signal });
  }
}

/** A non-2xx answer: 429 is retried, 5xx may have landed, any other error answer is final. */
function failedAnswer(answer: Answer<unknown>, what: string): FailedAttempt {
  const apiError = apiErrorFromAnswer(answer, what);
  const error = () => apiError;
  if (answer.status === 429) {
    return {
      cause: '429',
      mayHaveLanded: false,
      serviceFailed: false,
      retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
      happened: 'HTTP 429',
      error,
    };
  }
  if (answer.status >= 500) {
    const happened = `the answer was HTTP ${answer.status} (${apiError.message})`;
    return { cause: '5xx', mayHaveLanded: true, serviceFailed: !GATEWAY_STATUSES.has(answer.status), happened, error };
  }
  return { cause: undefined, mayHaveLanded: false, serviceFailed: false, happened: '', error };
}

function failedConnection(failure: AttemptFailure, origin: string, what: string, retry: number): FailedAttempt {
  return {
    cause: failure.retryCause,
    mayHaveLanded: failure.delivered === 'maybe',
    serviceFailed: false,
    happened: failure.message,
    error: () => new TransportError('unreachable', `${what}: ${origin} unreachable after ${retry + 1} attempt(s): ${failure.message}`, { cause: failure }),
  };
}

function ambiguous(what: string, happened: string, notRepeated: string, cause: Error | ApiError): TransportError {
  return new TransportError('ambiguous', `${what} may or may not have been applied: ${happened}. It was not sent again: ${notRepeated}.`, { cause });
}
