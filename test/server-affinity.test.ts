/**
 * `--backends N` (docs/protocol.md §7): cards and sessions live in one backend; the AWSALB cookie routes to it. A
 * client with one cookie jar per scorecard, shared by its sessions, keeps its card through rotations and
 * concurrency; a client that drops cookies, or replays a stale one, loses it exactly as on the hosted
 * service (404 on close, 400 on actions).
 */
import { CookieJar } from 'tough-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, AFFINITY_COOKIE, AFFINITY_GRACE_GENERATIONS, type StartServerOptions } from '../src/reference/server/index.ts';
import { fixtureGames, sixLevels, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest, type RawAnswer } from './support/httpDriver.ts';

const KEY = 'affinity-test-key';
// Scripted games: ACTION2 and ACTION4 change nothing and ACTION6 paints, so a run never ends early.
const IDLE_ACTIONS = ['ACTION2', 'ACTION4', 'ACTION6'] as const;
const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function serve(options: StartServerOptions) {
  const server = await startServer({ backendCount: 3, serviceOptions: { games: fixtureGames() }, ...options });
  running.push(server);
  return server;
}

/** The minimal correct client: one tough-cookie jar per scorecard, every Set-Cookie kept, newest wins. */
class CardClient {
  readonly jar = new CookieJar();
  constructor(private readonly baseUrl: string) {}

  async send(path: string, json?: unknown): Promise<RawAnswer> {
    const url = this.baseUrl + path;
    const cookie = await this.jar.getCookieString(url);
    const answer = await sendRequest(this.baseUrl, path, {
      headers: { 'x-api-key': KEY, ...(cookie ? { cookie } : {}) },
      ...(json === undefined ? {} : { json }),
    });
    for (const setCookie of answer.setCookies) await this.jar.setCookie(setCookie, url);
    return answer;
  }
}

/** A request carrying exactly this Cookie header (or none), keeping nothing. */
function sendWithCookie(baseUrl: string, path: string, cookie: string | undefined, json?: unknown): Promise<RawAnswer> {
  return sendRequest(baseUrl, path, { headers: { 'x-api-key': KEY, ...(cookie ? { cookie } : {}) }, ...(json === undefined ? {} : { json }) });
}

function action(name: (typeof IDLE_ACTIONS)[number], gameId: string, guid: string, i: number) {
  return { game_id: gameId, guid, ...(name === 'ACTION6' ? { x: i % 64, y: (i * 7) % 64 } : {}) };
}

/** Plays `actions` actions in one new session of the card; returns the session's guid. */
async function playSession(client: CardClient, cardId: string, gameId: string, actions: number): Promise<string> {
  const reset = await client.send('/api/cmd/RESET', { game_id: gameId, card_id: cardId });
  expect(reset.status, reset.text).toBe(200);
  const guid = reset.body.guid as string;
  for (let i = 0; i < actions; i++) {
    const name = IDLE_ACTIONS[i % IDLE_ACTIONS.length]!;
    const answer = await client.send(`/api/cmd/${name}`, action(name, gameId, guid, i));
    expect(answer.status, answer.text).toBe(200);
  }
  return guid;
}

/** Opens a card, plays `sessions` sessions concurrently on its one jar, closes it; checks the totals. */
async function playCard(baseUrl: string, sessions: number, actionsPerSession: number): Promise<string> {
  const client = new CardClient(baseUrl);
  const open = await client.send('/api/scorecard/open', {});
  expect(open.status, open.text).toBe(200);
  const cardId = open.body.card_id as string;
  const games = [threeLevels.info.id, sixLevels.info.id];
  await Promise.all(Array.from({ length: sessions }, (_, i) => playSession(client, cardId, games[i % games.length]!, actionsPerSession)));
  const close = await client.send('/api/scorecard/close', { card_id: cardId });
  expect(close.status, close.text).toBe(200);
  expect(close.body.total_actions).toBe(sessions * actionsPerSession);
  return cardId;
}

describe('affinity over 3 backends', () => {
  it('sets AWSALB and AWSALBCORS with Path=/ and without Secure on every answer', async () => {
    const server = await serve({});
    for (const answer of [await sendRequest(server.url, '/api/healthcheck'), await sendWithCookie(server.url, '/api/nope', undefined)]) {
      expect(answer.setCookies).toHaveLength(2);
      expect(answer.setCookies[0]).toMatch(new RegExp(`^${AFFINITY_COOKIE}=[^;]+; Expires=[^;]+; Path=/$`));
      expect(answer.setCookies[1]).toMatch(/^AWSALBCORS=[^;]+; Expires=[^;]+; Path=\/$/);
    }
  });

  it('a jar per scorecard keeps every card, its cards spread over the backends', async () => {
    const server = await serve({});
    const cards = await Promise.all(Array.from({ length: 6 }, () => playCard(server.url, 2, 12)));
    const holders = cards.map((cardId) => server.backends.findIndex((backend) => tryRead(() => backend.getScorecard(KEY, cardId))));
    expect(holders.every((index) => index >= 0)).toBe(true);
    expect(new Set(holders).size).toBe(3);
  });

  it('a jar per scorecard keeps every card when the cookie rotates every 2 answers', async () => {
    const server = await serve({ rotateAffinity: 2 });
    await Promise.all(Array.from({ length: 6 }, () => playCard(server.url, 2, 30)));
  });

  it('a jar per scorecard keeps its card with 64 sessions in flight and a rotation on every answer', async () => {
    const server = await serve({ rotateAffinity: 1 });
    await playCard(server.url, 64, 4);
  });

  it('a client that drops cookies loses its card: 400 on RESET and actions, 404 on close', async () => {
    const server = await serve({});
    const open = await sendWithCookie(server.url, '/api/scorecard/open', undefined, {});
    const cardId = open.body.card_id as string;
    // Round robin: with nothing else going on, the next cookieless requests land on the other backends.
    const reset = await sendWithCookie(server.url, '/api/cmd/RESET', undefined, { game_id: threeLevels.info.id, card_id: cardId });
    expect(reset.status).toBe(400);
    expect(reset.body.error).toBe('SERVER_ERROR');
    const close = await sendWithCookie(server.url, '/api/scorecard/close', undefined, { card_id: cardId });
    expect(close.status).toBe(404);

    // A session started with the cookie, then played without: two requests in three go elsewhere.
    const client = new CardClient(server.url);
    const card2 = (await client.send('/api/scorecard/open', {})).body.card_id as string;
    const guid = await playSession(client, card2, threeLevels.info.id, 0);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await sendWithCookie(server.url, '/api/cmd/ACTION2', undefined, { game_id: threeLevels.info.id, guid })).status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(2);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  });

  it('with a short grace, a client that replays the open-time cookie after many rotations loses its card; a recent one still routes', async () => {
    let now = Date.now();
    const GRACE_MS = 60_000;
    const server = await serve({ rotateAffinity: 1, affinityGraceMs: GRACE_MS, now: () => now });
    const client = new CardClient(server.url);
    const cardId = (await client.send('/api/scorecard/open', {})).body.card_id as string;
    const openCookie = await client.jar.getCookieString(`${server.url}/`);
    const guid = await playSession(client, cardId, threeLevels.info.id, AFFINITY_GRACE_GENERATIONS - 30);
    const recentCookie = await client.jar.getCookieString(`${server.url}/`);
    await playSession(client, cardId, sixLevels.info.id, 40);
    const act = (cookie: string) => sendWithCookie(server.url, '/api/cmd/ACTION2', cookie, { game_id: threeLevels.info.id, guid });

    // Many generations old but superseded moments ago: it may be a slow request of a correct client.
    for (let i = 0; i < 3; i++) expect((await act(openCookie)).status).toBe(200);
    now += GRACE_MS + 1000;
    // Now it is stale on both counts and routes like no cookie: two requests in three go elsewhere.
    const stale: number[] = [];
    for (let i = 0; i < 3; i++) stale.push((await act(openCookie)).status);
    expect(stale.filter((s) => s === 400)).toHaveLength(2);
    // A value 40-odd generations old is within the generation grace however long ago it was superseded.
    for (let i = 0; i < 3; i++) expect((await act(recentCookie)).status).toBe(200);
    const close = await client.send('/api/scorecard/close', { card_id: cardId });
    expect(close.status).toBe(200);
  });
});

function tryRead(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}
