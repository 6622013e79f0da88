/**
 * Transport over HTTP to any service URL: our reference server on loopback or the hosted service.
 * Pieces, one file each under ./http: base URL normalisation, cookie jars per scorecard, the retry
 * policy, the per-origin rate limiter, one attempt, one request with its retries, answer parsing.
 */
import { Pool } from 'undici';
import { z } from 'zod';
import type { FrameResponse, GameAction, GameDescriptor, OpenScorecardRequest, Scorecard } from '../protocol/index.ts';
import { ApiError, CLICK_ACTION_ID, gameDescriptorSchema, openScorecardResponseSchema, scorecardSchema } from '../protocol/index.ts';
import { actionCommand, resetCommand } from './commandBody.ts';
import type { Command } from './commandBody.ts';
import type { Transport, TransportStats } from './transport.ts';
import { parseFrameAnswer, parseJsonAnswer } from './http/answerBody.ts';
import { normaliseBaseUrl } from './http/baseUrl.ts';
import type { ServiceBase } from './http/baseUrl.ts';
import { CardCookieJars, storeSetCookies } from './http/cardCookieJars.ts';
import { exchange } from './http/exchange.ts';
import type { ExchangeRequest, ExchangeSettings, ExchangeTrace } from './http/exchange.ts';
import { defaultRateLimit, rateLimiterForOrigin } from './http/originRateLimiter.ts';
import type { OriginRateLimiter, RateLimit } from './http/originRateLimiter.ts';
import { DEFAULT_RETRY_POLICY } from './http/retryPolicy.ts';
import type { RetryCause, RetryPolicy } from './http/retryPolicy.ts';

/** Any pino-like logger; only these two levels are used. The API key is never passed to it. */
export interface TransportLogger {
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

export interface HttpTransportOptions {
  /** Service root, e.g. `https://three.arcprize.org`; trailing slashes and a trailing `/api` are tolerated. */
  baseUrl: string;
  apiKey: string;
  /** TCP (and TLS) connect timeout. Default 10 s. A connect timeout proves nothing was sent: retried. */
  connectTimeoutMs?: number;
  /** Time allowed for the answer's headers, and between chunks of its body. Default 30 s. */
  requestTimeoutMs?: number;
  /** Retries after the first attempt. Default 5. */
  maxRetries?: number;
  /** Backoff tuning (tests shorten it). Defaults: base 250 ms, cap 8 s, 60 s of waiting per request. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  maxRetryWaitMs?: number;
  /**
   * Requests per interval for this origin, shared by every transport of the process talking to it.
   * Default: HOSTED_RATE_LIMIT (the hosted service's) for a remote URL, none for localhost/loopback. `false`: none.
   */
  rateLimit?: RateLimit | false;
  /** A limiter shared beyond this process (the worker pool's, in Redis); when given, `rateLimit` is not used. */
  sharedLimiter?: OriginRateLimiter;
  /** Requests this transport has in flight at most, and the pool's connection count. Default 16. */
  connections?: number;
  logger?: TransportLogger;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECTIONS = 16;

const gameListSchema = z.array(gameDescriptorSchema);

export class HttpTransport implements Transport {
  readonly target: string;
  /** The budget in force for this transport's origin (possibly set by an earlier transport), or false. */
  readonly rateLimit: RateLimit | false;
  private readonly base: ServiceBase;
  private readonly pool: Pool;
  /** Exchanges under way, retries and their waits included: close() lets them finish. */
  private active = 0;
  private readonly onIdle: Array<() => void> = [];
  private readonly jars = new CardCookieJars();
  private readonly settings: ExchangeSettings;
  private requests = 0;
  private readonly retries: Record<string, number> = {};
  private closed = false;

  constructor(options: HttpTransportOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('HttpTransport: apiKey is empty; set ARC_API_KEY or pass the key you were given');
    }
    this.base = normaliseBaseUrl(options.baseUrl);
    this.target = this.base.display;
    const connections = positiveInteger(options.connections ?? DEFAULT_CONNECTIONS, 'connections');
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.pool = new Pool(this.base.origin, { connections, connectTimeout: connectTimeoutMs });

    const policy: RetryPolicy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      maxTotalWaitMs: options.maxRetryWaitMs ?? DEFAULT_RETRY_POLICY.maxTotalWaitMs,
    };
    const rateLimit = options.rateLimit ?? defaultRateLimit(this.base.loopback);
    const logger = options.logger;
    const limiter =
      options.sharedLimiter ??
      (rateLimit === false
        ? undefined
        : rateLimiterForOrigin(this.base.origin, rateLimit, (existing) =>
            logger?.warn(
              { origin: this.base.origin, requested: rateLimit, inEffect: existing },
              'rate limit for this origin already set by another transport; keeping it',
            ),
          ));
    this.rateLimit = limiter?.limit ?? false;

    this.settings = {
      pool: this.pool,
      origin: this.base.origin,
      apiKey: options.apiKey,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      policy,
      limiter,
      onAttempt: () => {
        this.requests++;
      },
      onRetry: (cause: RetryCause) => {
        this.retries[cause] = (this.retries[cause] ?? 0) + 1;
      },
      log: (message, fields) => logger?.debug({ target: this.target, ...fields }, message),
    };
  }

  async listGames(): Promise<GameDescriptor[]> {
    const what = 'list games';
    const answer = await this.send({ method: 'GET', path: this.path('/api/games'), jar: this.jars.general, replay: 'safe', what });
    // Descriptor fields the hosted service might omit are passed through as they came (loose schema).
    return parseJsonAnswer(answer, gameListSchema, what) as GameDescriptor[];
  }

  async getGame(gameId: string): Promise<GameDescriptor> {
    const what = `get game ${gameId}`;
    const answer = await this.send({
      method: 'GET',
      path: this.path(`/api/games/${encodeURIComponent(gameId)}`),
      jar: this.jars.general,
      replay: 'safe',
      what,
    });
    return parseJsonAnswer(answer, gameDescriptorSchema, what) as GameDescriptor;
  }

  async openScorecard(request: OpenScorecardRequest = {}): Promise<string> {
    const what = 'open scorecard';
    const jar = this.jars.forOpen();
    const answer = await this.send({ method: 'POST', path: this.path('/api/scorecard/open'), body: JSON.stringify(request), jar, replay: 'safe', what });
    const { card_id: cardId } = parseJsonAnswer(answer, openScorecardResponseSchema, what);
    this.jars.bind(cardId, jar);
    return cardId;
  }

  async closeScorecard(cardId: string): Promise<Scorecard> {
    const what = `close scorecard ${cardId}`;
    const jar = this.jars.existingOrGeneral(cardId);
    const trace: ExchangeTrace = { earlierAttemptMayHaveLanded: false };
    try {
      const answer = await this.send(
        { method: 'POST', path: this.path('/api/scorecard/close'), body: JSON.stringify({ card_id: cardId }), jar, replay: 'safe', what },
        trace,
      );
      return parseJsonAnswer(answer, scorecardSchema, what);
    } catch (error) {
      // A retried close whose first attempt did land gets 404 (already closed): the card is closed, read it.
      if (error instanceof ApiError && error.status === 404 && trace.earlierAttemptMayHaveLanded) {
        const card = await this.readScorecard(cardId, undefined, jar);
        if (card.published_at != null) return card;
      }
      throw error;
    } finally {
      this.jars.drop(cardId);
    }
  }

  async getScorecard(cardId: string, gameId?: string): Promise<Scorecard> {
    return this.readScorecard(cardId, gameId, this.jars.existingOrGeneral(cardId));
  }

  async reset(cardId: string, gameId: string, guid?: string): Promise<FrameResponse> {
    const what = guid === undefined ? `RESET (new session) of ${gameId} on card ${cardId}` : `RESET of session ${guid} (${gameId})`;
    return this.command(cardId, resetCommand(cardId, gameId, guid), what);
  }

  async act(cardId: string, gameId: string, guid: string, action: GameAction): Promise<FrameResponse> {
    const command = actionCommand(gameId, guid, action);
    const at = action.id === CLICK_ACTION_ID ? ` at (${action.x}, ${action.y})` : '';
    return this.command(cardId, command, `${command.name}${at} on session ${guid} (${gameId})`);
  }

  stats(): TransportStats {
    return { requests: this.requests, retries: { ...this.retries } };
  }

  affinityCookies(cardId: string): string[] {
    // The cookies a close of the card would send, which is what a later process needs to close it.
    return this.jars.affinityOf(cardId, this.base.origin + this.path('/api/scorecard/close'));
  }

  adoptAffinity(cardId: string, cookies: readonly string[]): void {
    // Path=/ so they go with every request of the card, as cookies the card's own answers set do.
    storeSetCookies(
      this.jars.forCard(cardId),
      this.base.origin,
      cookies.map((cookie) => `${cookie}; Path=/`),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.active > 0) await new Promise<void>((resolve) => this.onIdle.push(resolve));
    await this.pool.close();
  }

  private async command(cardId: string, command: Command, what: string): Promise<FrameResponse> {
    const answer = await this.send({
      method: 'POST',
      path: this.path(`/api/cmd/${command.name}`),
      body: JSON.stringify(command.body),
      jar: this.jars.forCard(cardId),
      replay: 'pinned',
      what,
    });
    return parseFrameAnswer(answer, what);
  }

  private async readScorecard(cardId: string, gameId: string | undefined, jar: ExchangeRequest['jar']): Promise<Scorecard> {
    const what = gameId === undefined ? `get scorecard ${cardId}` : `get scorecard ${cardId} for ${gameId}`;
    const gamePart = gameId === undefined ? '' : `/${encodeURIComponent(gameId)}`;
    const path = `/api/scorecard/${encodeURIComponent(cardId)}${gamePart}`;
    const answer = await this.send({ method: 'GET', path: this.path(path), jar, replay: 'safe', what });
    return parseJsonAnswer(answer, scorecardSchema, what);
  }

  private path(apiPath: string): string {
    return this.base.pathPrefix + apiPath;
  }

  private async send(request: ExchangeRequest, trace?: ExchangeTrace) {
    if (this.closed) throw new Error(`HttpTransport (${this.target}): used after close(); create a new transport`);
    // The pool holds requests beyond its connections in its own queue, in order; only the count of
    // exchanges under way is kept here (a queue of our own in front of it cost a visible share).
    this.active++;
    try {
      return await exchange(this.settings, request, trace);
    } finally {
      if (--this.active === 0) for (const resolve of this.onIdle.splice(0)) resolve();
    }
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`HttpTransport: ${name} must be a positive integer, got ${value}`);
  return value;
}
