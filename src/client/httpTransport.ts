/**
 * Transport over HTTP to any service URL: our reference server on loopback or the hosted service.
 * Pieces, one file each under ./http: base URL normalisation, cookie jars per scorecard, the retry
 * policy, the per-origin rate limiter, one attempt, one request with its retries, answer parsing, the
 * check of every answer against its request, the fields of answers arcbench uses.
 */
import { Pool } from 'undici';
import { z } from 'zod';
import type { FrameResponse, GameAction, GameDescriptor, OpenScorecardRequest, ScorecardAnswer } from '../protocol/index.ts';
import { ApiError, CLICK_ACTION_ID, gameDescriptorSchema, openScorecardResponseSchema, scorecardAnswerSchema, stringifyJson } from '../protocol/index.ts';
import { actionCommand, resetCommand } from './commandBody.ts';
import type { Command } from './commandBody.ts';
import { TransportError } from './transport.ts';
import type { Transport, TransportStats } from './transport.ts';
import { parseFrameAnswer, parseJsonAnswer } from './http/answerBody.ts';
import { checkCardId, checkDescriptors, checkFrame, checkScorecard } from './http/answerCheck.ts';
import { cardOfPlays, gameCardAnswerSchema, isPlaysAnswer } from './http/gameCardAnswer.ts';
import type { FrameExpectation } from './http/answerCheck.ts';
import { normaliseBaseUrl } from './http/baseUrl.ts';
import type { ServiceBase } from './http/baseUrl.ts';
import { CardCookieJars, storeSetCookies } from './http/cardCookieJars.ts';
import { ACTION, exchange, ONCE, SAFE } from './http/exchange.ts';
import type { ExchangeRequest, ExchangeSettings, ExchangeTrace, ReplayRule } from './http/exchange.ts';
import { interruptAttempts, type RawAnswer } from './http/sendOnce.ts';
import { missingDescriptorFields, missingScorecardFields, USED_FIELDS } from './http/usedFields.ts';
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

/** Why an open in competition mode is not repeated once its answer is lost. */
const COMPETITION_OPEN: ReplayRule = {
  kind: 'pinned',
  notRepeated:
    'in competition mode a key may hold one open card, so a second open would be refused while the first, if it opened, stays open ' +
    '(it closes by itself after 15 minutes without an action); wait for that, then run again',
};

export class HttpTransport implements Transport {
  readonly target: string;
  /** The budget in force for this transport's origin (possibly set by an earlier transport), or false. */
  readonly rateLimit: RateLimit | false;
  private readonly base: ServiceBase;
  private readonly connectTimeoutMs: number;
  private readonly connections: number;
  /** Pools retired because a connection of theirs went out of step; closed with the transport. */
  private readonly retiredPools: Promise<void>[] = [];
  /** Exchanges under way, retries and their waits included: close() lets them finish. */
  private active = 0;
  private readonly onIdle: Array<() => void> = [];
  private readonly jars = new CardCookieJars();
  private readonly settings: ExchangeSettings;
  private requests = 0;
  private readonly retries: Record<string, number> = {};
  private unconfirmedOpens = 0;
  /** Every session this transport started, so a stale answer of one cannot pass for a new one's. */
  private readonly sessions = new Set<string>();
  private readonly missingFields = new Set<string>();
  private readonly logger: TransportLogger | undefined;
  /** Aborted by interrupt(), then replaced: it cuts short only the requests under way at that moment. */
  private interruption = new AbortController();
  private closed = false;

  constructor(options: HttpTransportOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('HttpTransport: apiKey is empty; set ARC_API_KEY or pass the key you were given');
    }
    this.base = normaliseBaseUrl(options.baseUrl);
    this.target = this.base.display;
    this.connections = positiveInteger(options.connections ?? DEFAULT_CONNECTIONS, 'connections');
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;

    const policy: RetryPolicy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      maxTotalWaitMs: options.maxRetryWaitMs ?? DEFAULT_RETRY_POLICY.maxTotalWaitMs,
    };
    const rateLimit = options.rateLimit ?? defaultRateLimit(this.base.loopback);
    const logger = options.logger;
    this.logger = logger;
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
      pool: this.newPool(),
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
      onSpoiledConnection: () => this.retirePool(),
      interruption: () => this.interruption.signal,
      inFlight: new Set(),
    };
  }

  async listGames(): Promise<GameDescriptor[]> {
    const what = 'list games';
    const games = await this.send({
      method: 'GET',
      path: this.path('/api/games'),
      jar: this.jars.general,
      replay: SAFE,
      what,
      read: (answer) => this.readDescriptors(answer, gameListSchema, undefined, what),
    });
    return games;
  }

  async getGame(gameId: string): Promise<GameDescriptor> {
    const what = `get game ${gameId}`;
    return this.send({
      method: 'GET',
      path: this.path(`/api/games/${encodeURIComponent(gameId)}`),
      jar: this.jars.general,
      replay: SAFE,
      what,
      read: (answer) => this.readDescriptors(answer, gameDescriptorSchema, gameId, what),
    });
  }

  /**
   * Opens a card. An open whose answer is lost may have opened a card that nobody will close: it is
   * repeated once at most (never in competition mode), and each such open is counted in stats().
   */
  async openScorecard(request: OpenScorecardRequest = {}): Promise<string> {
    const competition = request.competition_mode === true;
    const what = competition ? 'open scorecard (competition mode)' : 'open scorecard';
    const jar = this.jars.forOpen();
    const trace: ExchangeTrace = { mayHaveLanded: 0 };
    let answered = false;
    try {
      const cardId = await this.send(
        {
          method: 'POST',
          path: this.path('/api/scorecard/open'),
          body: stringifyJson(request),
          jar,
          replay: competition ? COMPETITION_OPEN : ONCE,
          what,
          read: (answer) => {
            answered = true; // a card surely opened, whatever the answer's shape
            return checkCardId(parseJsonAnswer(answer, openScorecardResponseSchema, what).card_id, what);
          },
        },
        trace,
      );
      this.jars.bind(cardId, jar);
      return cardId;
    } catch (error) {
      if (answered && error instanceof TransportError) this.unconfirmedOpens++;
      throw error;
    } finally {
      this.unconfirmedOpens += trace.mayHaveLanded;
    }
  }

  async closeScorecard(cardId: string): Promise<ScorecardAnswer> {
    const what = `close scorecard ${cardId}`;
    const jar = this.jars.existingOrGeneral(cardId);
    const trace: ExchangeTrace = { mayHaveLanded: 0 };
    try {
      return await this.send(
        {
          method: 'POST',
          path: this.path('/api/scorecard/close'),
          body: JSON.stringify({ card_id: cardId }),
          jar,
          replay: SAFE,
          what,
          read: (answer) => this.readScorecardAnswer(answer, cardId, undefined, what),
        },
        trace,
      );
    } catch (error) {
      // A retried close whose first attempt did land gets 404 (already closed): the card is closed, read it.
      if (error instanceof ApiError && error.status === 404 && trace.mayHaveLanded > 0) {
        const card = await this.readScorecard(cardId, undefined, jar);
        if (card.published_at != null) return card;
      }
      throw error;
    } finally {
      this.jars.drop(cardId);
    }
  }

  async getScorecard(cardId: string, gameId?: string): Promise<ScorecardAnswer> {
    return this.readScorecard(cardId, gameId, this.jars.existingOrGeneral(cardId));
  }

  async reset(cardId: string, gameId: string, guid?: string): Promise<FrameResponse> {
    if (guid !== undefined)
      return this.command(cardId, resetCommand(cardId, gameId, guid), { gameId, guid, actionId: 0 }, `RESET of session ${guid} (${gameId})`);
    const what = `RESET (new session) of ${gameId} on card ${cardId}`;
    const frame = await this.command(cardId, resetCommand(cardId, gameId), { gameId, guid, actionId: 0, knownSessions: this.sessions }, what);
    this.sessions.add(frame.guid);
    return frame;
  }

  async act(cardId: string, gameId: string, guid: string, action: GameAction): Promise<FrameResponse> {
    const command = actionCommand(gameId, guid, action);
    const at = action.id === CLICK_ACTION_ID ? ` at (${action.x}, ${action.y})` : '';
    return this.command(cardId, command, { gameId, guid, actionId: action.id }, `${command.name}${at} on session ${guid} (${gameId})`);
  }

  stats(): TransportStats {
    return { requests: this.requests, retries: { ...this.retries }, unconfirmedOpens: this.unconfirmedOpens, missingFields: [...this.missingFields] };
  }

  interrupt(): void {
    const current = this.interruption;
    this.interruption = new AbortController();
    // The signal cuts the waits (retry, rate limit) and stops the exchanges at their next step; the
    // aborts cut the attempts in flight.
    current.abort();
    interruptAttempts(this.settings.inFlight);
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
    await Promise.all([this.settings.pool.close(), ...this.retiredPools]);
  }

  private async command(cardId: string, command: Command, expected: FrameExpectation, what: string): Promise<FrameResponse> {
    return this.send({
      method: 'POST',
      path: this.path(`/api/cmd/${command.name}`),
      body: stringifyJson(command.body),
      jar: this.jars.forCard(cardId),
      replay: ACTION,
      what,
      read: (answer) => checkFrame(parseFrameAnswer(answer, what), expected, what),
    });
  }

  private async readScorecard(cardId: string, gameId: string | undefined, jar: ExchangeRequest<unknown>['jar']): Promise<ScorecardAnswer> {
    const what = gameId === undefined ? `get scorecard ${cardId}` : `get scorecard ${cardId} for ${gameId}`;
    const gamePart = gameId === undefined ? '' : `/${encodeURIComponent(gameId)}`;
    const path = `/api/scorecard/${encodeURIComponent(cardId)}${gamePart}`;
    return this.send({
      method: 'GET',
      path: this.path(path),
      jar,
      replay: SAFE,
      what,
      read: (answer) => this.readScorecardAnswer(answer, cardId, gameId, what),
    });
  }

  private readScorecardAnswer(answer: RawAnswer, cardId: string, gameId: string | undefined, what: string): ScorecardAnswer {
    // The per-game path holds a restricted card, or the game's plays (gameCardAnswer.ts), complete as they are.
    const parsed = parseJsonAnswer(answer, gameId === undefined ? scorecardAnswerSchema : gameCardAnswerSchema, what);
    if (isPlaysAnswer(parsed)) return checkScorecard(cardOfPlays(parsed), cardId, gameId, what);
    const card = checkScorecard(parsed, cardId, gameId, what);
    this.noteMissing(missingScorecardFields(card), what);
    return card;
  }

  private readDescriptors<S extends z.ZodType>(answer: RawAnswer, schema: S, requested: string | undefined, what: string) {
    const parsed = parseJsonAnswer(answer, schema, what);
    const games = (Array.isArray(parsed) ? parsed : [parsed]) as GameDescriptor[];
    checkDescriptors(games, requested, what);
    this.noteMissing(missingDescriptorFields(games), what);
    return parsed as S extends typeof gameListSchema ? GameDescriptor[] : GameDescriptor;
  }

  /** Each used field missing from the service's answers is warned about once (per transport: per run). */
  private noteMissing(fields: readonly string[], what: string): void {
    for (const field of fields) {
      if (this.missingFields.has(field)) continue;
      this.missingFields.add(field);
      this.logger?.warn({ target: this.target, field, answer: what }, `the service's answers leave out ${field}, which arcbench uses ${USED_FIELDS[field]}`);
    }
  }

  private newPool(): Pool {
    return new Pool(this.base.origin, { connections: this.connections, connectTimeout: this.connectTimeoutMs });
  }

  /**
   * A connection went out of step and undici had already taken it back: new requests go to a fresh
   * pool, and the old one closes once its requests in flight are done.
   */
  private retirePool(): void {
    const old = this.settings.pool;
    this.settings.pool = this.newPool();
    this.retiredPools.push(old.close().catch(() => undefined));
  }

  private path(apiPath: string): string {
    return this.base.pathPrefix + apiPath;
  }

  private async send<T>(request: ExchangeRequest<T>, trace?: ExchangeTrace): Promise<T> {
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
