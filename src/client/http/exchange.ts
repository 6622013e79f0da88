/**
 * One request with its retries: rate-limit slot, attempt, classify, wait, again. Returns a 2xx answer;
 * throws ApiError for an error answer it may not (or can no longer) retry, TransportError `ambiguous`
 * when an action may have landed, TransportError `unreachable` when the service could not be reached.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiError } from '../../protocol/index.ts';
import { TransportError } from '../transport.ts';
import { apiErrorFromAnswer } from './answerBody.ts';
import type { OriginRateLimiter } from './originRateLimiter.ts';
import type { RetryCause, RetryPolicy } from './retryPolicy.ts';
import { parseRetryAfter, retryDelayMs } from './retryPolicy.ts';
import { AttemptFailure, sendOnce } from './sendOnce.ts';
import type { AttemptRequest, AttemptSettings, RawAnswer } from './sendOnce.ts';

/** `pinned`: RESET and ACTIONs, never resent once they may have reached the service. */
export type ReplayRule = 'safe' | 'pinned';

export interface ExchangeRequest extends AttemptRequest {
  replay: ReplayRule;
  /** What is being done, for messages: `ACTION6 on session … of ls20-…`. */
  what: string;
}

export interface ExchangeSettings extends AttemptSettings {
  policy: RetryPolicy;
  limiter: OriginRateLimiter | undefined;
  onAttempt: () => void;
  onRetry: (cause: RetryCause) => void;
  log: (message: string, fields: Record<string, unknown>) => void;
  random?: () => number;
}

export interface ExchangeTrace {
  /** An earlier attempt may have reached the service (a timeout, a reset, a 5xx) before the last one. */
  earlierAttemptMayHaveLanded: boolean;
}

/** Gateway answers: the gateway may have forwarded the request before failing. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export async function exchange(settings: ExchangeSettings, request: ExchangeRequest, trace?: ExchangeTrace): Promise<RawAnswer> {
  let waitedMs = 0;
  for (let retry = 0; ; retry++) {
    await settings.limiter?.acquire();
    settings.onAttempt();
    let outcome: { answer: RawAnswer } | { failure: AttemptFailure };
    try {
      outcome = { answer: await sendOnce(settings, request) };
    } catch (error) {
      if (!(error instanceof AttemptFailure)) throw error;
      outcome = { failure: error };
    }

    let cause: RetryCause;
    let retryAfterMs: number | undefined;
    let giveUp: () => Error;
    if ('answer' in outcome) {
      const { answer } = outcome;
      if (answer.status >= 200 && answer.status < 300) return answer;
      const apiError = apiErrorFromAnswer(answer, request.what);
      if (answer.status === 429) {
        cause = '429';
        retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
        giveUp = () => apiError;
      } else if (answer.status >= 500) {
        if (request.replay === 'pinned') {
          if (GATEWAY_STATUSES.has(answer.status)) throw ambiguous(request, `the answer was HTTP ${answer.status} (${apiError.message})`, apiError);
          throw apiError; // the service itself answered that it failed: it did not accept the action
        }
        cause = '5xx';
        giveUp = () => apiError;
      } else {
        throw apiError;
      }
    } else {
      const { failure } = outcome;
      if (failure.delivered === 'maybe' && request.replay === 'pinned') throw ambiguous(request, failure.message, failure);
      cause = failure.retryCause;
      giveUp = () =>
        new TransportError('unreachable', `${request.what}: ${settings.origin} unreachable after ${retry + 1} attempt(s): ${failure.message}`, {
          cause: failure,
        });
    }

    const delay = retryDelayMs(settings.policy, retry, waitedMs, retryAfterMs, settings.random);
    if (delay === undefined) throw giveUp();
    if (trace !== undefined && (cause === '5xx' || cause === 'timeout' || cause === 'connection_reset')) trace.earlierAttemptMayHaveLanded = true;
    settings.onRetry(cause);
    settings.log('retrying', { what: request.what, cause, retry: retry + 1, delayMs: delay });
    waitedMs += delay;
    await sleep(delay);
  }
}

function ambiguous(request: ExchangeRequest, happened: string, cause: Error | ApiError): TransportError {
  return new TransportError(
    'ambiguous',
    `${request.what} may or may not have been applied: ${happened}. It was not resent, because actions are not idempotent; ` +
      'end this episode, or read the scorecard to see whether the action was counted.',
    { cause },
  );
}
