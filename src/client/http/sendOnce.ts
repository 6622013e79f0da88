/**
 * One HTTP attempt on an undici pool: cookies read from the jar at send time, every Set-Cookie of the
 * answer stored before its body is read (so an answer lost mid-body still updates affinity), the whole
 * body taken as bytes. A network failure comes out as an AttemptFailure that says whether the request
 * can have reached the server, which is what the retry decision turns on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Buffer } from 'node:buffer';
import type { Dispatcher, Pool } from 'undici';
import type { CookieJar } from 'tough-cookie';
import { cookieHeaderFor, storeSetCookies } from './cardCookieJars.ts';
import type { RetryCause } from './retryPolicy.ts';

export interface AttemptRequest {
  method: 'GET' | 'POST';
  /** Full path, prefix included, starting with `/`. */
  path: string;
  /** JSON text for POST. */
  body?: string;
  jar: CookieJar;
}

export interface AttemptSettings {
  pool: Pool;
  origin: string;
  apiKey: string;
  requestTimeoutMs: number;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Uint8Array;
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

export function sendOnce(settings: AttemptSettings, request: AttemptRequest): Promise<RawAnswer> {
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
      new AnswerCollector(settings.origin, request.jar, resolve, reject),
    );
  });
}

/**
 * Receives one answer from undici's dispatcher: status and headers (Set-Cookie stored at once), then
 * the body chunks, kept as they come and joined once at the end. The dispatcher's handler interface
 * spares a response stream and its events per request, which `pool.request` would build only for the
 * body to be read whole.
 */
class AnswerCollector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private length = 0;

  constructor(
    private readonly origin: string,
    private readonly jar: CookieJar,
    private readonly resolve: (answer: RawAnswer) => void,
    private readonly reject: (failure: AttemptFailure) => void,
  ) {}

  // Its presence is what tells undici this handler speaks the current interface.
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[]>): void {
    if (statusCode < 200) return; // an informational answer; the real one follows
    this.status = statusCode;
    this.headers = headers as IncomingHttpHeaders;
    storeSetCookies(this.jar, this.origin, headers['set-cookie']);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    // One chunk (the usual case on loopback) is a view of the socket's read buffer, used as it is.
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    this.resolve({ status: this.status, headers: this.headers, bytes });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.status === 0) {
      this.reject(classifyNetworkError(error, 'before the answer'));
      return;
    }
    // The status line arrived: the server surely got the request.
    const failure = classifyNetworkError(error, `while reading the HTTP ${this.status} answer`);
    this.reject(new AttemptFailure('maybe', failure.retryCause, failure.message, error));
  }
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
