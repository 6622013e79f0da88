/**
 * The `fetch` the SDKs are given (their documented `fetch` option): one exchange through undici's
 * dispatcher, the answer gathered whole and handed over as a standard Response (readResponse.ts).
 * Node's own fetch runs every request through WHATWG streams and a chain of AbortSignals; with this one
 * the agent's own time per call on the episode's thread fell from 2.9–4.8 ms to 2.4–2.8 ms (`npm run
 * bench -- llm`, 2026-11-26, quiet machine). Gathering the chunks in the dispatch handler rather than
 * through undici's `request` (which puts the body behind a Readable) took a further 0.2 ms off a 31 kB
 * exchange woken after a 50 ms wait (1.06–1.13 → 0.85–0.87 ms).
 *
 * It asks for no compression (model replies are a few kB), but decodes an answer that comes compressed
 * anyway. Bodies the SDKs send here are strings; anything else (a stream, a form) and a Request object go
 * to the global fetch unchanged.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { getGlobalDispatcher } from 'undici';
import { ReadResponse } from './readResponse.ts';

/** Statuses whose Response must have no body. */
const BODILESS = new Set([101, 204, 205, 304]);

const DECODERS: Record<string, (bytes: Uint8Array) => Promise<Uint8Array>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    // The body handed over is decoded, so it is no longer in that encoding, nor of that length.
    if (name === 'content-encoding' || name === 'content-length') continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/** The body as sent, decoded from each content-encoding in turn (last applied, first undone). */
async function decoded(bytes: Uint8Array, encoding: string | string[] | undefined): Promise<Uint8Array> {
  const codings = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).split(',').map((coding) => coding.trim().toLowerCase());
  let body = bytes;
  for (const coding of codings.reverse()) {
    if (coding === '' || coding === 'identity') continue;
    const decode = DECODERS[coding];
    if (decode === undefined) throw new TypeError(`the answer is in content-encoding "${coding}", which cannot be decoded`);
    body = await decode(body);
  }
  return body;
}

/** The request's headers as undici takes them: a Headers object as it is (pairs), a list of pairs as a record. */
function headersOf(headers: RequestInit['headers']): Headers | Record<string, string> | undefined {
  if (headers === undefined || headers instanceof Headers) return headers;
  return Array.isArray(headers) ? Object.fromEntries(headers) : (headers as Record<string, string>);
}

interface Answer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Uint8Array;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : (new DOMException('This operation was aborted', 'AbortError') as Error);
}

/**
 * One request through undici's global dispatcher, its answer's chunks gathered as they come. The signal
 * rejects at once; undici's controller, which exists once the request is on a connection, stops it.
 */
function exchange(url: URL, init: RequestInit, body: string | undefined): Promise<Answer> {
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const chunks: Buffer[] = [];
    let status = 0;
    let answerHeaders: IncomingHttpHeaders = {};
    let stop: ((reason: Error) => void) | undefined;
    const onAbort = () => {
      reject(abortReason(signal!));
      stop?.(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = () => signal?.removeEventListener('abort', onAbort);
    const options = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (init.method ?? 'GET') as 'GET',
      headers: headersOf(init.headers),
      body,
    };
    getGlobalDispatcher().dispatch(options, {
      onRequestStart(controller) {
        stop = (reason) => controller.abort(reason);
        if (signal?.aborted) stop(abortReason(signal));
      },
      onResponseStart(_controller, statusCode, headers) {
        status = statusCode;
        answerHeaders = headers;
      },
      onResponseData: (_controller, chunk) => void chunks.push(chunk),
      onResponseEnd() {
        settled();
        resolve({ statusCode: status, headers: answerHeaders, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      },
      onResponseError(_controller, error) {
        settled();
        reject(error);
      },
    });
  });
}

export async function lightFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const answer = await exchange(typeof input === 'string' ? new URL(input) : input, init, body ?? undefined);
  const encoding = answer.headers['content-encoding'];
  const content = BODILESS.has(answer.statusCode) ? null : encoding === undefined ? answer.bytes : await decoded(answer.bytes, encoding);
  return new ReadResponse(content, { status: answer.statusCode, headers: headerPairs(answer.headers) });
}
