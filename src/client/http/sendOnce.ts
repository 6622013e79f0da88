/**
 * One HTTP attempt on an undici pool: cookies read from the jar at send time, the whole body taken as
 * bytes, a success answer read (and checked against its request) by the caller's `read` before its
 * Set-Cookie goes into the jar, so an answer that belongs to another request changes nothing. A network
 * failure comes out as an AttemptFailure that says whether the request can have reached the server,
 * which is what the retry decision turns on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Buffer } from 'node:buffer';
import type { Dispatcher, Pool } from 'undici';
import type { CookieJar } from 'tough-cookie';
import { cookieHeaderFor, storeSetCookies } from './cardCookieJars.ts';
import type { RetryCause } from './retryPolicy.ts';

export interface AttemptRequest<T> {
  method: 'GET' | 'POST';
  /** Full path, prefix included, starting with `/`. */
  path: string;
  /** JSON text for POST. */
  body?: string;
  jar: CookieJar;
  /**
   * Reads a 2xx answer into the caller's value, checking it against the request (answerCheck.ts), or
   * throws. It runs before the answer's Set-Cookie is stored and, when the answer declared its length,
   * before undici hands the connection back, so a throw closes that connection (one answer out of step
   * means every later one on it is too).
   */
  read: (answer: RawAnswer) => T;
}

export interface AttemptSettings {
  /** Replaced when a connection is out of step and could not be closed on its own (see onSpoiledConnection). */
  pool: Pool;
  origin: string;
  apiKey: string;
  requestTimeoutMs: number;
  /**
   * A chunked answer (no length declared) failed its read after undici had taken the connection back:
   * it cannot be closed alone, so the caller retires the whole pool.
   */
  onSpoiledConnection: () => void;
  /**
   * The attempts in flight, which an interruption aborts (interruptAttempts). A set of controllers, and
   * neither a listener on the interruption's AbortSignal nor a closure per attempt: those cost 10 to 25
   * µs an action, more than the checks of the answer.
   */
  inFlight: Set<Dispatcher.DispatchController>;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Uint8Array;
}

/** An answer; `value` is what `read` made of it, for a 2xx answer only. */
export interface Answer<T> extends RawAnswer {
  value: T | undefined;
}

/** The attempt was cut short because the caller interrupted it (its `signal` aborted). */
export class AttemptInterrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'AttemptInterrupted';
  }
}

/**
 * A failed attempt. `delivered`: `no` when the failure proves nothing was sent (the connection never
 * opened), `maybe` when the server may have received and acted on the request.
 */
export class AttemptFailure extends Error {
  readonly delivered: 'no' | 'maybe';
  readonly retryCause: RetryCause;
  constructor(delivered: 'no' | 'maybe', retryCause: RetryCause, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'AttemptFailure';
    this.delivered = delivered;
    this.retryCause = retryCause;
  }
}

/**
 * One attempt. It is cut short (its connection closed, AttemptInterrupted) when `signal` has aborted as
 * it starts, or when the caller calls the abort it finds in `settings.inFlight` meanwhile.
 */
export function sendOnce<T>(settings: AttemptSettings, request: AttemptRequest<T>, signal?: AbortSignal): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'x-api-key': settings.apiKey, accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const cookie = cookieHeaderFor(request.jar, settings.origin + request.path);
  if (cookie !== undefined) headers.cookie = cookie;
  return new Promise((resolve, reject) => {
    settings.pool.dispatch(
      {
        method: request.method,
        path: request.path,
        headers,
        body: request.body,
        headersTimeout: settings.requestTimeoutMs,
        bodyTimeout: settings.requestTimeoutMs,
      },
      new AnswerCollector(settings, request, signal, resolve, reject),
    );
  });
}

/**
 * Receives one answer from undici's dispatcher: status and headers, then the body chunks, kept as they
 * come and joined once. A success answer is read as soon as its declared length has arrived (still
 * inside undici's handling of the message, where aborting closes the socket), else at its end; its
 * cookies are stored once it read well. Error answers are not checked against anything and carry no
 * session data: their cookies are not kept either (an older value of the affinity cookie stays valid).
 * The dispatcher's handler interface spares a response stream and its events per request, which
 * `pool.request` would build only for the body to be read whole.
 */
class AnswerCollector<T> implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;
  /** The declared body length of a success answer, -1 when none was declared. */
  private declaredLength = -1;
  private read: { value: T } | undefined;
  private readFailure: unknown;
  private controller: Dispatcher.DispatchController | undefined;

  constructor(
    private readonly settings: AttemptSettings,
    private readonly request: AttemptRequest<T>,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (answer: Answer<T>) => void,
    private readonly reject: (failure: unknown) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.signal?.aborted === true) {
      controller.abort(new AttemptInterrupted());
      return;
    }
    this.controller = controller;
    this.settings.inFlight.add(controller);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[]>): void {
    if (statusCode < 200) return; // an informational answer; the real one follows
    this.status = statusCode;
    this.headers = headers as IncomingHttpHeaders;
    const declared = headers['content-length'];
    if (isSuccess(statusCode) && typeof declared === 'string') this.declaredLength = Number(declared);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length === this.declaredLength) this.readAnswer(controller);
  }

  onResponseEnd(): void {
    if (this.controller !== undefined) this.settings.inFlight.delete(this.controller);
    if (!isSuccess(this.status)) {
      this.resolve({ status: this.status, headers: this.headers, bytes: this.bytes(), value: undefined });
      return;
    }
    if (this.read === undefined && this.readFailure === undefined) this.readAnswer(undefined);
    if (this.read === undefined) {
      this.settings.onSpoiledConnection();
      this.reject(this.readFailure);
      return;
    }
    storeSetCookies(this.request.jar, this.settings.origin, this.headers['set-cookie']);
    this.resolve({ status: this.status, headers: this.headers, bytes: this.bytes(), value: this.read.value });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.controller !== undefined) this.settings.inFlight.delete(this.controller);
    if (error instanceof AttemptInterrupted || this.signal?.aborted === true) {
      this.reject(new AttemptInterrupted());
      return;
    }
    if (this.readFailure !== undefined) {
      this.reject(this.readFailure); // our own abort, which closed the connection
      return;
    }
    if (this.status === 0) {
      this.reject(classifyNetworkError(error, 'before the answer'));
      return;
    }
    // The status line arrived: the server surely got the request.
    const failure = classifyNetworkError(error, `while reading the HTTP ${this.status} answer`);
    this.reject(new AttemptFailure('maybe', failure.retryCause, failure.message, error));
  }

  /** Reads the success answer; on failure aborts the request (when still possible), closing its socket. */
  private readAnswer(controller: Dispatcher.DispatchController | undefined): void {
    try {
      this.read = { value: this.request.read({ status: this.status, headers: this.headers, bytes: this.bytes() }) };
    } catch (error) {
      this.readFailure = error;
      controller?.abort(error as Error);
    }
  }

  private bytes(): Buffer {
    // One chunk (the usual case on loopback) is a view of the socket's read buffer, used as it is.
    if (this.chunks.length !== 1) this.chunks.splice(0, this.chunks.length, Buffer.concat(this.chunks, this.length));
    return this.chunks[0]!;
  }
}

/** Aborts every attempt in flight (their connections close; they reject with AttemptInterrupted). */
export function interruptAttempts(inFlight: Set<Dispatcher.DispatchController>): void {
  const attempts = [...inFlight];
  inFlight.clear();
  for (const controller of attempts) controller.abort(new AttemptInterrupted());
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Maps a socket or undici error to what it proves about delivery. */
function classifyNetworkError(error: unknown, when: string): AttemptFailure {
  const code = errorCode(error);
  const detail = `${code ?? 'error'}: ${(error as Error)?.message ?? String(error)}`;
  if (code !== undefined && NEVER_CONNECTED.has(code)) {
    return new AttemptFailure('no', 'connection_refused', `could not connect (${detail})`, error);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AttemptFailure('no', 'connect_timeout', `connection not established in time (${detail})`, error);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new AttemptFailure('maybe', 'timeout', `timed out ${when} (${detail})`, error);
  }
  return new AttemptFailure('maybe', 'connection_reset', `connection failed ${when} (${detail})`, error);
}

/** The error code, looking through AggregateError (happy-eyeballs connects) and `cause`. */
function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const inner = (error as { errors?: unknown[] }).errors?.[0] ?? (error as { cause?: unknown }).cause;
  return inner === undefined || inner === error ? undefined : errorCode(inner);
}
