/**
 * One model call, done properly, whatever the API: the answer checked, 429 and 5xx retried with
 * backoff (the server's Retry-After first, then a 429's rate-limit reset), a timeout per request, the episode's signal aborting a
 * call in flight, the optional response cache, and the call's tokens and dollars reported to the
 * runner. Each provider gives it a Wire: how to send a body with its SDK, how to check an answer,
 * and how to read the answer's usage.
 *
 * An attempt that failed late is paid (providers bill the model's work, not our use of it): a timeout,
 * a server error other than an overload, an answer we could not use. Each is reported as a call of its
 * own, at the figures its answer carried, else with zero tokens and its cost unknown (null), so cost
 * totals and dollar budgets say "unknown" rather than undercount. A 429, a 503/529 (overloaded) and a
 * connection that never opened did no work and are not reported.
 *
 * The SDKs' own retries are off: they would retry past the episode's deadline and outside our count.
 * Waiting is cut by the signal, which the runner aborts at the deadline, so no retry outlives it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ArcbenchError, type ModelCallTranscript, type ModelCallUsage } from 'arcbench';
import type { ResponseCache } from '../responseCache.ts';
import { rateLimitResetMs } from './rateLimitReset.ts';
import { type AgentPricing, dollarsOf, type UsageFigures } from './usage.ts';

/** Longest Retry-After honoured; a provider that asks for more is out of quota, not busy. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

/** The error classes both official SDKs export under these names. */
export interface SdkErrors {
  readonly APIError: abstract new (...args: never[]) => Error & { status?: number | undefined; headers?: Headers | undefined };
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
  readonly APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  readonly AuthenticationError: abstract new (...args: never[]) => Error;
}

export interface Wire<Body, Answer> {
  readonly baseUrl: string;
  /** Where the key comes from, for the sentence of a 401. */
  readonly keySource: string;
  readonly errors: SdkErrors;
  send(body: Body, signal: AbortSignal): Promise<unknown>;
  /** The answer, typed; throws MalformedAnswer when it is not one. */
  check(raw: unknown): Answer;
  /** The answer's token counts (`counted: false` when the server sent none: the cost is then unknown). */
  usage(answer: Answer, body: Body): UsageFigures;
  /** What was sent and what came back, in the transcript's terms (src/agent/transcript.ts). */
  transcript?(body: Body, answer: Answer): Omit<ModelCallTranscript, 'usage'>;
}

export interface ModelClientOptions {
  readonly apiKey: string;
  readonly pricing: AgentPricing | undefined;
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  readonly signal: AbortSignal;
  readonly cache: ResponseCache | undefined;
  /** The episode's seed, part of every cache key. */
  readonly episodeSeed: number;
  readonly reportUsage: (call: ModelCallUsage) => void;
  /** Keeps each call's transcript with the episode (the agent context's keepTranscript). */
  readonly keepTranscript?: (call: ModelCallTranscript) => void;
}

export type CallKind = 'action' | 'compaction';

/** A model call that failed for good; the message says what the provider did and what to check. */
export class ModelCallError extends ArcbenchError {
  constructor(message: string) {
    super('MODEL_CALL_FAILED', message);
  }
}

/** An answer that is not of the API's shape (a proxy's error page, a truncated body). */
export class MalformedAnswer extends Error {}

/** undici's own timeouts, found in an error's causes: the headers, or the body's next chunk, came too late. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function undiciTimeoutCode(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNDICI_TIMEOUTS.has(code)) return code;
  }
  return undefined;
}

/** The first failure in an error's causes: fetch's own "fetch failed" says nothing of what failed. */
function rootCause(error: Error): Error {
  let cause = error;
  while (cause.cause instanceof Error) cause = cause.cause;
  return cause;
}

/**
 * Timers fire a little off their mark (undici's by up to a second late, Node's by a millisecond early):
 * a timeout this close to request_timeout_seconds is that setting's.
 */
const TIMER_SLACK_MS = 50;

/** Milliseconds the server asked us to wait (retry-after-ms, or Retry-After in seconds or as a date). */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (value === null || value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Statuses a provider answers before any work: too many requests, overloaded. */
const UNBILLED_STATUSES = new Set([429, 503, 529]);

/** Whether a failed attempt may have made the model work (and so be billed). */
function mayHaveBilled(error: unknown, errors: SdkErrors): boolean {
  if (error instanceof MalformedAnswer || error instanceof SyntaxError) return true;
  if (error instanceof errors.APIConnectionTimeoutError || undiciTimeoutCode(error) !== undefined) return true;
  if (error instanceof errors.APIError) return (error.status ?? 0) >= 500 && !UNBILLED_STATUSES.has(error.status ?? 0);
  return false;
}

/** The figures of an unusable answer that still carried its usage (a body of the wrong shape, a failed response). */
function readableUsage<Body, Answer>(raw: unknown, body: Body, wire: Wire<Body, Answer>): UsageFigures | undefined {
  const usage = (raw as { usage?: unknown } | null | undefined)?.usage;
  if (usage === null || typeof usage !== 'object') return undefined;
  try {
    const figures = wire.usage(raw as Answer, body);
    return figures.counted === false ? undefined : figures;
  } catch {
    return undefined;
  }
}

export class ModelClient<Body, Answer> {
  constructor(
    private readonly wire: Wire<Body, Answer>,
    private readonly options: ModelClientOptions,
  ) {}

  /** The answer; its usage is reported (as cached, at no cost, when the cache answered). */
  async complete(body: Body, kind: CallKind): Promise<Answer> {
    const cache = this.options.cache;
    const key = cache?.keyOf(this.wire.baseUrl, body, this.options.episodeSeed);
    const stored = key === undefined ? undefined : cache!.get(key);
    if (stored !== undefined) {
      const answer = this.wire.check(stored);
      this.keep(body, answer, this.report(this.wire.usage(answer, body), kind, true));
      return answer;
    }
    const raw = await this.withRetries(body, kind);
    if (key !== undefined) cache!.put(key, raw.raw);
    this.keep(body, raw.answer, this.report(this.wire.usage(raw.answer, body), kind, false));
    return raw.answer;
  }

  /** Reports a call the provider made within another (a compaction run inside a request). */
  report(figures: UsageFigures, kind: CallKind, cached: boolean): ModelCallUsage {
    const { cache_write_tokens: _written, counted, ...call } = figures;
    // Without the server's token counts the cost is unknown, not zero.
    const cost = counted === false ? null : dollarsOf(figures, this.options.pricing);
    const usage: ModelCallUsage = { ...call, cost_usd: cost, kind, ...(cached ? { cached: true } : {}) };
    this.options.reportUsage(usage);
    return usage;
  }

  /** The call's transcript, with the very usage reportUsage was given (verify sums both). */
  private keep(body: Body, answer: Answer, usage: ModelCallUsage): void {
    const keepTranscript = this.options.keepTranscript;
    if (keepTranscript === undefined || this.wire.transcript === undefined) return;
    keepTranscript({ ...this.wire.transcript(body, answer), usage });
  }

  private async withRetries(body: Body, kind: CallKind): Promise<{ raw: unknown; answer: Answer }> {
    const { signal, maxRetries } = this.options;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let raw: unknown;
      try {
        raw = await this.request(body);
        return { raw, answer: this.wire.check(raw) };
      } catch (error) {
        if (signal.aborted) throw error;
        this.reportFailedAttempt(error, raw, body, kind);
        const delay = this.retryDelay(error, attempt);
        if (delay === undefined || attempt >= maxRetries) throw this.failure(error, attempt + 1, performance.now() - started);
        await sleep(delay, undefined, { signal });
      }
    }
  }

  /** A failed attempt the provider may have billed, as a call: its answer's figures, or its cost unknown. */
  private reportFailedAttempt(error: unknown, raw: unknown, body: Body, kind: CallKind): void {
    if (!mayHaveBilled(error, this.wire.errors)) return;
    const model = String((body as { model?: unknown }).model ?? '');
    const unknown: UsageFigures = { model, input_tokens: 0, cached_input_tokens: 0, reasoning_tokens: 0, output_tokens: 0, counted: false };
    this.report(readableUsage(raw, body, this.wire) ?? unknown, kind, false);
  }

  /**
   * One request, aborted with the episode. The SDKs never remove the listener they add to the signal
   * they are given, so each gets a signal of its request's own: the episode's stays at one listener.
   */
  private async request(body: Body): Promise<unknown> {
    const { signal } = this.options;
    // Its abort event has fired already and would never reach the request's own signal.
    signal.throwIfAborted();
    const request = new AbortController();
    const abort = () => request.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      return await this.wire.send(body, request.signal);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /** How long to wait before trying again, or undefined when this failure is not worth a retry. */
  private retryDelay(error: unknown, attempt: number): number | undefined {
    const { errors } = this.wire;
    const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
    if (error instanceof MalformedAnswer || error instanceof SyntaxError) return backoff;
    if (error instanceof errors.APIConnectionError || undiciTimeoutCode(error) !== undefined) return backoff; // timeouts and refused connections
    if (error instanceof errors.APIError && (error.status === 429 || (error.status ?? 0) >= 500)) {
      const asked = retryAfterMs(error.headers) ?? (error.status === 429 ? rateLimitResetMs(error.headers) : undefined);
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return undefined;
      return asked ?? backoff;
    }
    return undefined;
  }

  /**
   * The error an episode records: what happened, how often, and what to check. The key never appears.
   * `waitedMs` is the last attempt's time, which says whether a timeout was request_timeout_seconds'.
   */
  private failure(error: unknown, attempts: number, waitedMs: number): ModelCallError {
    const { errors } = this.wire;
    const where = `the model server at ${this.wire.baseUrl}`;
    const tries = attempts === 1 ? '' : ` (${attempts} attempts)`;
    let message: string;
    if (error instanceof errors.APIConnectionTimeoutError || undiciTimeoutCode(error) !== undefined)
      message = `${where} ${this.timeoutSentence(undiciTimeoutCode(error), waitedMs, tries)}`;
    else if (error instanceof errors.APIConnectionError) message = `${where} could not be reached${tries}: ${rootCause(error).message}; check params.base_url`;
    else if (error instanceof errors.AuthenticationError) message = `${where} refused the API key (401): ${error.message}; check ${this.wire.keySource}`;
    else if (error instanceof errors.APIError) {
      const asked = retryAfterMs(error.headers);
      const wait =
        asked !== undefined && asked > MAX_RETRY_AFTER_MS ? ` and asked to wait ${Math.round(asked / 1000)} s, too long to wait within an episode` : '';
      message = `${where} answered ${error.status ?? 'an error'}${tries}${wait}: ${error.message}`;
    } else message = `${where} gave an unusable answer${tries}: ${(error as Error).message}`;
    return new ModelCallError(this.scrub(message));
  }

  /**
   * What a timeout was, truthfully: request_timeout_seconds ran out (raising it may help), or a limit
   * on the way ended the call sooner (raising the setting would not help).
   */
  private timeoutSentence(undiciCode: string | undefined, waitedMs: number, tries: string): string {
    const limitMs = this.options.requestTimeoutMs;
    const limit = `${limitMs / 1000} s`;
    if (waitedMs < limitMs - TIMER_SLACK_MS) {
      const waited = `${(waitedMs / 1000).toFixed(1)} s`;
      return `timed out after ${waited}${tries}, before params.request_timeout_seconds (${limit}) ran out: a limit on the way (the connection's setup, a proxy) ended the call, so raising that setting will not help; check params.base_url and the network`;
    }
    if (undiciCode === 'UND_ERR_BODY_TIMEOUT')
      return `began its answer, then sent nothing more for ${limit} (params.request_timeout_seconds)${tries}; check the server`;
    return `did not answer within ${limit}${tries}; raise params.request_timeout_seconds or check the server`;
  }

  /** The key out of any text a server could have echoed it into. */
  private scrub(text: string): string {
    const key = this.options.apiKey;
    return key.length >= 8 ? text.split(key).join('[redacted]') : text;
  }
}
