/**
 * The `fetch` the SDKs are given (their documented `fetch` option): undici's `request`, the answer read
 * whole and handed over as a standard Response (readResponse.ts). Node's own fetch runs every request through WHATWG
 * streams and a chain of AbortSignals; with this one the agent's own time per call on the episode's
 * thread fell from 2.9–4.8 ms to 2.4–2.8 ms (`npm run bench -- llm`, 2026-11-26, quiet machine).
 *
 * It asks for no compression (model replies are a few kB), but decodes an answer that comes compressed
 * anyway. Bodies the SDKs send here are strings; anything else (a stream, a form) and a Request object go
 * to the global fetch unchanged.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { request } from 'undici';
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

/** The request's headers as undici takes them; the SDKs give a Headers object, read as it is. */
function headerObject(headers: RequestInit['headers']): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers);
  return headers as Record<string, string>;
}

export async function lightFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const answer = await request(typeof input === 'string' ? input : input.href, {
    method: (init.method ?? 'GET') as 'GET',
    headers: headerObject(init.headers),
    body: body ?? undefined,
    signal: init.signal ?? undefined,
  });
  const bytes = new Uint8Array(await answer.body.arrayBuffer());
  const encoding = answer.headers['content-encoding'];
  const content = BODILESS.has(answer.statusCode) ? null : encoding === undefined ? bytes : await decoded(bytes, encoding);
  return new ReadResponse(content, { status: answer.statusCode, headers: headerPairs(answer.headers) });
}
