/**
 * One model call, done properly: through the official `openai` SDK (Chat Completions) to any
 * compatible server, with the answer checked, 429 and 5xx retried with backoff (the server's
 * Retry-After first), a timeout per request, the episode's signal aborting a call in flight, the
 * optional response cache, and the call's tokens and dollars reported to the runner.
 *
 * The SDK's own retries are off: it would retry past the episode's deadline and outside our count.
 * Waiting is cut by the signal, which the runner aborts at the deadline, so no retry outlives it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { ArcbenchError, costOfCall, type ModelCallTranscript, type ModelCallUsage, type Pricing } from 'arcbench';
import type { ResponseCache } from './responseCache.ts';

export type RequestBody = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
export type ReplyMessage = OpenAI.Chat.ChatCompletionMessage;

export interface ModelReply {
  readonly message: ReplyMessage;
  /** The provider's count of the request's tokens; undefined when it sent none. */
  readonly inputTokens: number | undefined;
}

/** Longest Retry-After honoured; a provider that asks for more is out of quota, not busy. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

export interface ModelClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pricing: Pricing | undefined;
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

/** A model call that failed for good; the message says what the provider did and what to check. */
export class ModelCallError extends ArcbenchError {
  constructor(message: string) {
    super('MODEL_CALL_FAILED', message);
  }
}

/** An answer that is not a chat completion (a proxy's error page, a truncated body). */
class MalformedAnswer extends Error {}

/** A chat completion with at least one choice (its type says so, so the first choice is read without a check). */
type CheckedCompletion = OpenAI.Chat.ChatCompletion & { choices: [OpenAI.Chat.ChatCompletion.Choice, ...OpenAI.Chat.ChatCompletion.Choice[]] };

function checkedCompletion(value: unknown): CheckedCompletion {
  const message = (value as { choices?: Array<{ message?: unknown }> } | null)?.choices?.[0]?.message;
  if (message === null || typeof message !== 'object') {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    throw new MalformedAnswer(`the answer is not a chat completion: ${String(text).slice(0, 200)}`);
  }
  return value as CheckedCompletion;
}

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

/** How long to wait before trying again, or undefined when this failure is not worth a retry. */
function retryDelay(error: unknown, attempt: number): number | undefined {
  const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
  if (error instanceof MalformedAnswer || error instanceof SyntaxError) return backoff;
  if (error instanceof OpenAI.APIConnectionError) return backoff; // timeouts and refused connections
  if (error instanceof OpenAI.APIError && (error.status === 429 || (error.status ?? 0) >= 500)) {
    const asked = retryAfterMs(error.headers);
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return undefined;
    return asked ?? backoff;
  }
  return undefined;
}

export class ModelClient {
  readonly #client: OpenAI;
  readonly #options: ModelClientOptions;

  constructor(options: ModelClientOptions) {
    this.#options = options;
    this.#client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0, timeout: options.requestTimeoutMs, logLevel: 'off' });
  }

  /** The reply; its usage is reported (as cached, at no cost, when the cache answered). */
  async complete(body: RequestBody, kind: 'action' | 'compaction'): Promise<ModelReply> {
    const cache = this.#options.cache;
    const key = cache?.keyOf(this.#options.baseUrl, body, this.#options.episodeSeed);
    const stored = key === undefined ? undefined : cache!.get(key);
    if (stored !== undefined) {
      const completion = checkedCompletion(stored);
      this.#report(completion, body, kind, true);
      return { message: completion.choices[0].message, inputTokens: completion.usage?.prompt_tokens };
    }
    const completion = await this.#withRetries(body);
    if (key !== undefined) cache!.put(key, completion);
    this.#report(completion, body, kind, false);
    return { message: completion.choices[0].message, inputTokens: completion.usage?.prompt_tokens };
  }

  async #withRetries(body: RequestBody): Promise<CheckedCompletion> {
    const { signal, maxRetries } = this.#options;
    for (let attempt = 0; ; attempt++) {
      try {
        return checkedCompletion(await this.#request(body));
      } catch (error) {
        if (signal.aborted) throw error;
        const delay = retryDelay(error, attempt);
        if (delay === undefined || attempt >= maxRetries) throw this.#failure(error, attempt + 1);
        await sleep(delay, undefined, { signal });
      }
    }
  }

  /**
   * One request, aborted with the episode. The SDK never removes the listener it adds to the signal it
   * is given, so it gets a signal of this request's own: the episode's stays at one listener a call.
   */
  async #request(body: RequestBody): Promise<unknown> {
    const { signal } = this.#options;
    const request = new AbortController();
    const abort = () => request.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      return await this.#client.chat.completions.create(body, { signal: request.signal });
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  #report(completion: OpenAI.Chat.ChatCompletion, body: RequestBody, kind: 'action' | 'compaction', cached: boolean): void {
    const usage = completion.usage;
    const call = {
      model: completion.model || body.model,
      input_tokens: usage?.prompt_tokens ?? 0,
      cached_input_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      output_tokens: usage?.completion_tokens ?? 0,
    };
    // Without the server's token counts the cost is unknown, not zero.
    const cost = usage === undefined || usage === null ? null : costOfCall(call, this.#options.pricing);
    this.#options.reportUsage({ ...call, cost_usd: cost, kind, ...(cached ? { cached: true } : {}) });
    // The transcript: what was sent and what came back, with the same usage.
    const { messages, tools, ...params } = body;
    const reply = completion.choices[0]?.message;
    this.#options.keepTranscript?.({
      request: { messages, ...(tools ? { tools } : {}), params },
      response: { content: reply?.content ?? null, ...(reply?.tool_calls ? { tool_calls: reply.tool_calls } : {}) },
      usage: { ...call, cost_usd: cost, kind, ...(cached ? { cached: true } : {}) },
    });
  }

  /** The error an episode records: what happened, how often, and what to check. The key never appears. */
  #failure(error: unknown, attempts: number): ModelCallError {
    const where = `the model server at ${this.#options.baseUrl}`;
    const tries = attempts === 1 ? '' : ` (${attempts} attempts)`;
    let message: string;
    if (error instanceof OpenAI.APIConnectionTimeoutError)
      message = `${where} did not answer within ${this.#options.requestTimeoutMs / 1000} s${tries}; raise params.request_timeout_seconds or check the server`;
    else if (error instanceof OpenAI.APIConnectionError)
      message = `${where} could not be reached${tries}: ${(error.cause as Error | undefined)?.message ?? error.message}; check params.base_url`;
    else if (error instanceof OpenAI.AuthenticationError)
      message = `${where} refused the API key (401): ${error.message}; check OPENAI_API_KEY or params.api_key`;
    else if (error instanceof OpenAI.APIError) {
      const asked = retryAfterMs(error.headers);
      const wait =
        asked !== undefined && asked > MAX_RETRY_AFTER_MS ? ` and asked to wait ${Math.round(asked / 1000)} s, too long to wait within an episode` : '';
      message = `${where} answered ${error.status ?? 'an error'}${tries}${wait}: ${error.message}`;
    } else message = `${where} gave an unusable answer${tries}: ${(error as Error).message}`;
    return new ModelCallError(this.#scrub(message));
  }

  /** The key out of any text a server could have echoed it into. */
  #scrub(text: string): string {
    const key = this.#options.apiKey;
    return key.length >= 8 ? text.split(key).join('[redacted]') : text;
  }
}
