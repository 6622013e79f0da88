/**
 * Bad input of every kind at every endpoint: random and malformed bodies, paths, methods, headers, and
 * raw bytes that are not HTTP at all. Every answer must be a 4xx `{error, message}` (or a success when
 * the input happens to be valid), never a 5xx, never a crash; afterwards the server still works.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/reference/server/index.ts';
import { clickGame, fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest, type RawAnswer } from './support/httpDriver.ts';

const KEY = 'fuzz-key';
const BODY_LIMIT = 16 * 1024;
let server: RunningServer;
let cardId: string;
let guid: string;

beforeAll(async () => {
  server = await startServer({ serviceOptions: { games: fixtureGames() }, bodyLimitBytes: BODY_LIMIT });
  cardId = (await sendRequest(server.url, '/api/scorecard/open', { headers: { 'x-api-key': KEY }, json: {} })).body.card_id;
  guid = (await sendRequest(server.url, '/api/cmd/RESET', { headers: { 'x-api-key': KEY }, json: { game_id: clickGame.info.id, card_id: cardId } })).body.guid;
});

afterAll(async () => {
  await server.close();
});

// Printable ASCII: what undici lets through in a header value or a path.
const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
const anyText = fc.string({ unit: 'binary', maxLength: 40 });

const idLike = () => fc.oneof(fc.constant(cardId), fc.constant(guid), fc.constant(threeLevels.info.id), fc.constant('thre'), anyText, printable(600));

const pathArb = fc.oneof(
  fc.constantFrom(
    '/api/healthcheck',
    '/api/games',
    '/api/scorecard/open',
    '/api/scorecard/close',
    '/api/cmd/RESET',
    '/api/cmd/ACTION1',
    '/api/cmd/ACTION6',
    '/api/cmd/ACTION7',
  ),
  fc.tuple(fc.constantFrom('/api/games/', '/api/scorecard/', '/api/cmd/', '/api/', '/'), idLike()).map(([prefix, id]) => prefix + encodeURIComponent(id)),
  fc.tuple(idLike(), idLike()).map(([a, b]) => `/api/scorecard/${encodeURIComponent(a)}/${encodeURIComponent(b)}`),
  fc.constantFrom(
    '/api/%',
    '/api/games/%zz',
    '/api/games/%C0%AF',
    '//api//games',
    '/api/games/../games',
    '/api/cmd/RESET/',
    '/api/cmd/RESET?x=1&x=2',
    `/api/games?${'q'.repeat(5000)}`,
    `/api/scorecard/${'a'.repeat(600)}`,
  ),
  printable(80).map((p) => `/${p.replace(/[ #?%]/g, '_')}`),
);

const methodArb = fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO');

const keyArb = fc.oneof({ arbitrary: fc.constant(KEY), weight: 6 }, fc.constant(''), printable(40), fc.constant('k'.repeat(20_000)), fc.constant(undefined));

// Mostly JSON, so most requests get past the parser and reach the service's validation.
const contentTypeArb = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/jsonp',
    ';;;',
  ),
  printable(30),
  fc.constant(undefined),
);

const fieldValue = fc.oneof(idLike(), fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: -100, max: 100 }), fc.double(), fc.constant(null));
const nearValidBody = fc
  .record(
    {
      game_id: fieldValue,
      card_id: fieldValue,
      guid: fieldValue,
      x: fieldValue,
      y: fieldValue,
      reasoning: fc.jsonValue({ maxDepth: 3 }),
      tags: fieldValue,
      opaque: fc.jsonValue(),
      competition_mode: fieldValue,
    },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));

const bodyArb = fc.oneof(
  fc.constant(undefined),
  nearValidBody,
  nearValidBody,
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  nearValidBody.map((text) => text.slice(0, Math.floor(text.length / 2))),
  anyText,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('', ' ', 'null', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"game_id":"thre"', '['.repeat(5000)),
  fc.constant(JSON.stringify({ game_id: 'thre', reasoning: 'r'.repeat(BODY_LIMIT + 10) })),
);

function expectWellFormed(answer: RawAnswer, method: string, what: string): void {
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status < 400 || method === 'HEAD') return;
  expect(answer.headers['content-type'], what).toMatch(/^application\/json/);
  expect(answer.body, `${what}: ${answer.text.slice(0, 200)}`).toEqual({ error: expect.any(String), message: expect.any(String) });
}

describe('HTTP server under bad input', () => {
  it('answers random requests at every endpoint with 2xx or 4xx {error, message}, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(methodArb, pathArb, keyArb, contentTypeArb, bodyArb, printable(30), async (method, path, key, contentType, body, extra) => {
        const headers: Record<string, string> = { 'x-extra': extra };
        if (key !== undefined) headers['x-api-key'] = key;
        if (contentType !== undefined) headers['content-type'] = contentType;
        const sendsBody = method !== 'GET' && method !== 'HEAD';
        const answer = await sendRequest(server.url, path, { method, headers, ...(sendsBody && body !== undefined ? { body } : {}) });
        expectWellFormed(answer, method, `${method} ${path.slice(0, 80)}`);
      }),
      { numRuns: 400 },
    );
    expect(Object.prototype).not.toHaveProperty('polluted');
  }, 60_000);

  it('answers bytes that are not HTTP with a 4xx (or just closes), and keeps serving', async () => {
    const port = server.port;
    const raw = (bytes: Uint8Array | string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('error', () => resolve(received));
        socket.on('close', () => resolve(received));
        socket.on('connect', () => socket.end(bytes));
        socket.setTimeout(2000, () => socket.destroy());
      });
    const cases: (Uint8Array | string)[] = [
      'garbage\r\n\r\n',
      'GET /api/games HTTP/1.1\r\n\r\n', // no Host
      'GET /api/games HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n',
      'POST /api/cmd/RESET HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /api/cmd/RESET HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (const input of cases) {
      const reply = await raw(input);
      if (reply !== '') expect(reply, JSON.stringify(input).slice(0, 80)).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), async (bytes) => {
        const reply = await raw(bytes);
        if (reply !== '') expect(reply).toMatch(/^HTTP\/1\.1 4\d\d /);
      }),
      { numRuns: 40 },
    );
  }, 30_000);

  it('still answers the health check and a normal RESET afterwards', async () => {
    expect((await sendRequest(server.url, '/api/healthcheck')).status).toBe(200);
    const open = await sendRequest(server.url, '/api/scorecard/open', { headers: { 'x-api-key': KEY }, json: {} });
    expect(open.status).toBe(200);
    const reset = await sendRequest(server.url, '/api/cmd/RESET', {
      headers: { 'x-api-key': KEY },
      json: { game_id: threeLevels.info.id, card_id: open.body.card_id },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.state).toBe('NOT_FINISHED');
  });
});
