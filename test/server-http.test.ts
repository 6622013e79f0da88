/**
 * What only the HTTP edge does (docs/protocol.md §2, §6, §8): auth header, unknown paths and methods, body parsing,
 * limits, rate limiting with Retry-After, key redaction in logs, the frame codec on the wire, graceful
 * close. Everything else is the conformance suite's job.
 */
import { Writable, Readable } from 'node:stream';
import { request } from 'undici';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeFrameResponse, GRID_CELLS } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/index.ts';
import type { Game } from '../src/games/types.ts';
import { startServer, type StartServerOptions } from '../src/reference/server/index.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest, type RawAnswer } from './support/httpDriver.ts';

const KEY = 'http-test-key';
const GAME = threeLevels.info.id;
const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function serve(options: StartServerOptions = {}) {
  const server = await startServer({ serviceOptions: { games: fixtureGames(), ...options.serviceOptions }, ...options });
  running.push(server);
  const send = (path: string, init: Parameters<typeof sendRequest>[2] = {}) =>
    sendRequest(server.url, path, { ...init, headers: { 'x-api-key': KEY, ...init.headers } });
  return { server, send };
}

function expectError(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ error: code, message: expect.any(String) });
  expect(answer.body.message.length).toBeGreaterThan(10);
}

describe('HTTP server: endpoints and errors', () => {
  it('answers the health check without a key, also to HEAD', async () => {
    const { server } = await serve();
    const answer = await sendRequest(server.url, '/api/healthcheck');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
    expect((await sendRequest(server.url, '/api/healthcheck', { method: 'HEAD' })).status).toBe(200);
  });

  it('401 UNAUTHORIZED without a key, from every kind of endpoint', async () => {
    const { server } = await serve();
    expectError(await sendRequest(server.url, '/api/games'), 401, 'UNAUTHORIZED');
    expectError(await sendRequest(server.url, '/api/scorecard/open', { json: {} }), 401, 'UNAUTHORIZED');
    expectError(await sendRequest(server.url, '/api/cmd/RESET', { json: { game_id: GAME } }), 401, 'UNAUTHORIZED');
  });

  it('404 {error, message} for unknown paths and commands', async () => {
    const { send } = await serve();
    for (const path of ['/', '/nope', '/api', '/api/nope', '/api/games/x/y/z', '/api/cmd/ACTION8', '/api/cmd/reset'])
      expectError(
        await send(path, { method: path.startsWith('/api/cmd') ? 'POST' : 'GET', json: path.startsWith('/api/cmd') ? {} : undefined }),
        404,
        'SERVER_ERROR',
      );
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const { send } = await serve();
    const get = await send('/api/cmd/RESET');
    expectError(get, 405, 'VALIDATION_ERROR');
    expect(get.headers.allow).toBe('POST');
    const post = await send('/api/games', { json: {} });
    expectError(post, 405, 'VALIDATION_ERROR');
    expect(post.headers.allow).toBe('GET');
    expectError(await send('/api/scorecard/open', { method: 'DELETE' }), 405, 'VALIDATION_ERROR');
    expectError(await send('/api/scorecard/some-card', { method: 'PUT', json: {} }), 405, 'VALIDATION_ERROR');
  });

  it('400 VALIDATION_ERROR for a body that is not JSON, empty, or poisoned; and names what is wrong', async () => {
    const { send } = await serve();
    const json = { 'content-type': 'application/json' };
    const bad = await send('/api/cmd/RESET', { method: 'POST', headers: json, body: '{"game_id": ' });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.message).toMatch(/not valid JSON/);
    expectError(await send('/api/scorecard/open', { method: 'POST', headers: json, body: '' }), 400, 'VALIDATION_ERROR');
    expectError(await send('/api/scorecard/open', { method: 'POST', headers: json, body: '{"__proto__": {"x": 1}}' }), 400, 'VALIDATION_ERROR');
    expectError(await send('/api/scorecard/open', { method: 'POST' }), 400, 'VALIDATION_ERROR');
  });

  it('415 VALIDATION_ERROR for a body that is not sent as application/json', async () => {
    const { send } = await serve();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const answer = await send('/api/scorecard/open', { method: 'POST', headers: { 'content-type': type }, body: '{}' });
      expectError(answer, 415, 'VALIDATION_ERROR');
      expect(answer.body.message).toMatch(/application\/json/);
    }
    const withCharset = await send('/api/scorecard/open', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{}' });
    expect(withCharset.status).toBe(200);
  });

  it('413 VALIDATION_ERROR for a body over the limit', async () => {
    const { send } = await serve({ bodyLimitBytes: 1024 });
    const answer = await send('/api/scorecard/open', { json: { opaque: 'x'.repeat(2000) } });
    expectError(answer, 413, 'VALIDATION_ERROR');
    expect(answer.body.message).toMatch(/1024 bytes/);
    expect((await send('/api/scorecard/open', { json: { opaque: 'x'.repeat(900) } })).status).toBe(200);
  });

  it('431 {error, message} for headers over the size limit, 400 for a path that is not a valid URL, 414 for an absurd id', async () => {
    const { server, send } = await serve();
    expectError(await send('/api/games', { headers: { 'x-padding': 'x'.repeat(64 * 1024) } }), 431, 'VALIDATION_ERROR');
    expectError(await send('/api/games/%zz'), 400, 'VALIDATION_ERROR');
    const long = await send(`/api/scorecard/${'a'.repeat(600)}`);
    expectError(long, 414, 'VALIDATION_ERROR');
    expect(long.body.message.length).toBeLessThan(300);
    expect((await sendRequest(server.url, '/api/healthcheck')).status).toBe(200);
  });

  it('sends frame responses as the codec’s JSON: decodable, grids of 64×64', async () => {
    const { send } = await serve();
    const cardId = (await send('/api/scorecard/open', { json: {} })).body.card_id;
    const reset = await send('/api/cmd/RESET', { json: { game_id: GAME, card_id: cardId } });
    expect(reset.status).toBe(200);
    expect(reset.headers['content-type']).toMatch(/^application\/json/);
    const frame = decodeFrameResponse(reset.text);
    expect(frame).toMatchObject({ game_id: GAME, state: 'NOT_FINISHED', full_reset: true, action_input: { id: 0, data: {} } });
    expect(frame.frame[0]?.length).toBe(GRID_CELLS);
  });

  it('answers a genuine bug with 500 SERVER_ERROR, logs it, and keeps serving', async () => {
    const broken: Game = {
      info: { slug: 'brok', id: 'brok-00000000', title: 'Broken', tags: ['keyboard'], defaultFps: 5, availableActions: [1], baselineActions: [1] },
      start: () => ({
        levelIndex: 0,
        frame: () => new Uint8Array(GRID_CELLS),
        resetLevel: () => new Uint8Array(GRID_CELLS),
        step: () => {
          throw new Error('this game is broken on purpose');
        },
      }),
    };
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({
        write: (chunk, _enc, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const { send } = await serve({ backends: [new ReferenceService({ games: [broken] })], logger });
    const cardId = (await send('/api/scorecard/open', { json: {} })).body.card_id;
    const { guid } = (await send('/api/cmd/RESET', { json: { game_id: 'brok', card_id: cardId } })).body;
    expectError(await send('/api/cmd/ACTION1', { json: { game_id: 'brok', guid } }), 500, 'SERVER_ERROR');
    expect(lines.join('')).toMatch(/broken on purpose/);
    expect((await send('/api/games')).status).toBe(200);
  });
});

describe('HTTP server: rate limit', () => {
  it('429 RATE_LIMIT_EXCEEDED with Retry-After in whole seconds once a key spends its minute; per key', async () => {
    let now = 1_000_000;
    const { server, send } = await serve({ rateLimitPerMinute: 3, now: () => now });
    for (let i = 0; i < 3; i++) expect((await send('/api/games')).status).toBe(200);
    const refused = await send('/api/games');
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    // 3 per minute: one request is earned every 20 s.
    expect(refused.headers['retry-after']).toBe('20');
    expect((await send('/api/games', { headers: { 'x-api-key': 'another-key' } })).status).toBe(200);
    expect((await sendRequest(server.url, '/api/healthcheck')).status).toBe(200);
    now += 19_000;
    expect((await send('/api/games')).headers['retry-after']).toBe('1');
    now += 1_000;
    expect((await send('/api/games')).status).toBe(200);
  });

  it('injects a 429 with Retry-After: 0 on every Nth request, for testing clients’ retries', async () => {
    const { send } = await serve({ inject429Every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answer = await send('/api/games');
      statuses.push(answer.status);
      if (answer.status === 429) {
        expectError(answer, 429, 'RATE_LIMIT_EXCEEDED');
        expect(answer.headers['retry-after']).toBe('0');
      }
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429, 200]);
  });
});

describe('HTTP server: logging and lifecycle', () => {
  it('logs requests with the X-API-Key redacted', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write: (chunk, _enc, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const secret = 'sekrit-key-do-not-log-0123456789';
    const { server } = await serve({ logger });
    await sendRequest(server.url, '/api/games', { headers: { 'x-api-key': secret } });
    await sendRequest(server.url, '/api/scorecard/open', { headers: { 'x-api-key': secret }, json: {} });
    await sendRequest(server.url, '/api/nope', { headers: { 'x-api-key': secret, authorization: `Bearer ${secret}` } });
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(4);
    expect(log).toContain('/api/scorecard/open');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(secret);
  });

  it('close() stops accepting and lets an in-flight request finish', async () => {
    // The server logs each request as its headers arrive: that line says the request is in flight.
    let arrived!: () => void;
    const inServer = new Promise<void>((resolve) => (arrived = resolve));
    const logger = pino(
      new Writable({
        write(chunk, _encoding, done) {
          const line = String(chunk);
          if (line.includes('incoming request') && line.includes('/api/scorecard/open')) arrived();
          done();
        },
      }),
    );
    const server = await startServer({ serviceOptions: { games: fixtureGames() }, logger });
    // A body that arrives in two parts keeps the request in flight while close() starts.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = Readable.from(
      (async function* () {
        yield '{"source_url":';
        await released;
        yield '"https://example.org/agent"}';
      })(),
    );
    const inFlight = request(`${server.url}/api/scorecard/open`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body });
    await inServer;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    // close() stops listening a moment after it starts (fastify runs its hooks first): poll until a new
    // connection is refused, and see that close() still waits for the request in flight.
    await vi.waitFor(() => expect(request(`${server.url}/api/healthcheck`)).rejects.toThrow(), { timeout: 10_000, interval: 10 });
    expect(closed).toBe(false);
    release();
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toMatchObject({ card_id: expect.any(String) });
    await closing;
    expect(closed).toBe(true);
  });
});
