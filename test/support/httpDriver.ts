/**
 * The ServiceDriver over HTTP: each call is one real request to a running server, and the answer is what
 * any client would see (status, parsed JSON body, headers). Frame grids stay as the wire carries them
 * (rows of numbers); the suite reads them through gridsOf(). `sendRequest` is the raw form the HTTP
 * tests use for what no driver method can express (bad JSON, odd methods, headers).
 */
import { request } from 'undici';
import { resolveKey, type ServiceDriver, type DriverResponse } from './serviceDriver.ts';

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is. */
  body?: string | Buffer;
  /** Sent as JSON with Content-Type application/json; wins over `body`. */
  json?: unknown;
}

export interface RawAnswer {
  status: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
  text: string;
  headers: Record<string, string>;
  /** Set-Cookie values, in order. */
  setCookies: string[];
}

export async function sendRequest(baseUrl: string, path: string, options: RawRequest = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const method = (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET';
  const response = await request(baseUrl + path, { method, headers, body });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const flat: Record<string, string> = {};
  let setCookies: string[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    if (name === 'set-cookie') setCookies = Array.isArray(value) ? value : [value];
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, body: parsed, text, headers: flat, setCookies };
}

export function createHttpDriver(baseUrl: string): ServiceDriver {
  const call = async (method: 'GET' | 'POST', path: string, key: string | null | undefined, body?: unknown): Promise<DriverResponse> => {
    const sentKey = resolveKey(key);
    const answer = await sendRequest(baseUrl, path, {
      method,
      headers: sentKey === undefined ? {} : { 'x-api-key': sentKey },
      ...(body === undefined ? {} : { json: body }),
    });
    return { status: answer.status, body: answer.body, headers: answer.headers, text: answer.text };
  };
  const segment = encodeURIComponent;
  return {
    games: (key) => call('GET', '/api/games', key),
    game: (id, key) => call('GET', `/api/games/${segment(id)}`, key),
    open: (body, key) => call('POST', '/api/scorecard/open', key, body),
    close: (body, key) => call('POST', '/api/scorecard/close', key, body),
    card: (id, gameId, key) => call('GET', `/api/scorecard/${segment(id)}${gameId === undefined ? '' : `/${segment(gameId)}`}`, key),
    command: (name, body, key) => call('POST', `/api/cmd/${segment(name)}`, key, body),
    page: (id) => call('GET', `/scorecards/${segment(id)}`, null),
  };
}
