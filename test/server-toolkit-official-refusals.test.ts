/**
 * `arcbench serve --dialect toolkit` refuses as the official toolkit's own server does (docs/protocol.md §7a):
 * each refusal arc_agi/api.py can give, and each HTML page its web framework answers a request it cannot
 * route or parse with, sent to both servers; the status line (its reason phrase too), Content-Type,
 * `Allow` and text must be the same, ids aside.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToolkitServers, type ToolkitServers } from './support/toolkitServerPairs.ts';

const BT11 = 'bt11-fd9df0622a1a';
const BT33 = 'bt33-a7c3f9d18b4e';
const KEY = 'toolkit-refusals';

let servers: ToolkitServers;
beforeAll(async () => {
  servers = await startToolkitServers({ competition: true });
}, 60_000);
afterAll(() => servers?.stop());

interface Answer {
  statusLine: string;
  type: string;
  /** The methods `Allow` names, in order (the toolkit's own order is its hash seed's). */
  allow: string[];
  text: string;
}

interface Ask {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is, with the headers given. */
  body?: string;
}

/** One request over a fresh connection, and the answer as a client reads it. */
function ask(url: string, path: string, options: Ask = {}): Promise<Answer> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  const headers = { 'x-api-key': KEY, ...(options.json === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  return new Promise((resolve, reject) => {
    const sent = request(`${url}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          statusLine: `${response.statusCode} ${response.statusMessage}`,
          type: response.headers['content-type'] ?? '',
          allow: (response.headers.allow ?? '').split(', ').filter(Boolean).sort(),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** What each case starts from on the server it is sent to: an open card, and a session of bt11 on it. */
interface Start {
  url: string;
  card: string;
  guid: string;
}

async function start(url: string): Promise<Start> {
  const card = JSON.parse((await ask(url, '/api/scorecard/open', { json: {} })).text).card_id as string;
  const guid = JSON.parse((await ask(url, '/api/cmd/RESET', { json: { game_id: BT11, card_id: card } })).text).guid as string;
  return { url, card, guid };
}

async function playToGameOver({ url, guid }: Start): Promise<void> {
  // bt11 is lost once a move goes right: ACTION4, then its level's remaining depth.
  await ask(url, '/api/cmd/ACTION4', { json: { game_id: BT11, guid } });
  for (let i = 0; i < 3; i++) await ask(url, '/api/cmd/ACTION3', { json: { game_id: BT11, guid } });
}

/** Closed again after, so that the key may open the next competition card. */
async function readOpenCompetitionCard({ url }: Start, game: string): Promise<Answer> {
  const { card_id } = JSON.parse((await ask(url, '/api/scorecard/open', { json: { competition_mode: true } })).text);
  const answer = await ask(url, `/api/scorecard/${card_id}${game}`);
  await ask(url, '/api/scorecard/close', { json: { card_id } });
  return answer;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Each refusal, as the case names it. */
const REFUSALS: Record<string, (s: Start) => Promise<Answer>> = {
  'unknown game': (s) => ask(s.url, '/api/games/zz99'),
  'unknown card': (s) => ask(s.url, '/api/scorecard/no-such-card'),
  'unknown card, one game': (s) => ask(s.url, `/api/scorecard/no-such-card/${BT11}`),
  'open, body an array': (s) => ask(s.url, '/api/scorecard/open', { json: [1] }),
  'open, body null': (s) => ask(s.url, '/api/scorecard/open', { json: null }),
  'open, opaque too big': (s) => ask(s.url, '/api/scorecard/open', { json: { opaque: 'x'.repeat(20_000) } }),
  // 9 KB of UTF-8, but 18 KB as the toolkit counts it (each é its escape \u00e9).
  'open, opaque too big as escaped': (s) => ask(s.url, '/api/scorecard/open', { json: { opaque: 'é'.repeat(3_000) } }),
  'close, body an array': (s) => ask(s.url, '/api/scorecard/close', { json: [1] }),
  'close without card_id': (s) => ask(s.url, '/api/scorecard/close', { json: {} }),
  'close, unknown card': (s) => ask(s.url, '/api/scorecard/close', { json: { card_id: 'no-such-card' } }),
  'close, card_id a number': (s) => ask(s.url, '/api/scorecard/close', { json: { card_id: 5 } }),
  'close, card_id null': (s) => ask(s.url, '/api/scorecard/close', { json: { card_id: null } }),
  'close twice': async (s) => {
    await ask(s.url, '/api/scorecard/close', { json: { card_id: s.card } });
    return ask(s.url, '/api/scorecard/close', { json: { card_id: s.card } });
  },
  'action, body an array': (s) => ask(s.url, '/api/cmd/ACTION1', { json: [1] }),
  'action without game_id': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { guid: s.guid } }),
  'action, game_id a number': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: 5, guid: s.guid } }),
  'ACTION6, x out of the grid': (s) => ask(s.url, '/api/cmd/ACTION6', { json: { game_id: BT11, guid: s.guid, x: 99, y: 1 } }),
  'ACTION6, x a word': (s) => ask(s.url, '/api/cmd/ACTION6', { json: { game_id: BT11, guid: s.guid, x: 'a', y: 1 } }),
  'ACTION6, x a fraction': (s) => ask(s.url, '/api/cmd/ACTION6', { json: { game_id: BT11, guid: s.guid, x: 1.5, y: 1 } }),
  'action of a session of another key': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, guid: s.guid }, headers: { 'x-api-key': 'another' } }),
  'action of a session, with an empty key': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, guid: s.guid }, headers: { 'x-api-key': '' } }),
  'action with a card, without guid': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, card_id: s.card } }),
  'action with a card, guid empty': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, card_id: s.card, guid: '' } }),
  'action with an unknown card, without guid': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, card_id: 'no-such-card' } }),
  'action without card or guid': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11 } }),
  'RESET without card or guid': (s) => ask(s.url, '/api/cmd/RESET', { json: { game_id: BT11 } }),
  'RESET, card_id a number': (s) => ask(s.url, '/api/cmd/RESET', { json: { game_id: BT11, card_id: 5 } }),
  'RESET of an unknown game': (s) => ask(s.url, '/api/cmd/RESET', { json: { game_id: 'zz99', card_id: s.card } }),
  'RESET with an unknown card': (s) => ask(s.url, '/api/cmd/RESET', { json: { game_id: BT11, card_id: 'no-such-card' } }),
  'action, unknown guid': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, guid: 'no-such-session' } }),
  'action, guid a number': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT11, guid: 5 } }),
  'action, guid of another game': (s) => ask(s.url, '/api/cmd/ACTION1', { json: { game_id: BT33, guid: s.guid } }),
  'action after the card closed': async (s) => {
    await ask(s.url, '/api/scorecard/close', { json: { card_id: s.card } });
    return ask(s.url, '/api/cmd/ACTION3', { json: { game_id: BT11, guid: s.guid } });
  },
  'action after GAME_OVER': async (s) => {
    await playToGameOver(s);
    return ask(s.url, '/api/cmd/ACTION3', { json: { game_id: BT11, guid: s.guid } });
  },
  'open competition card read': (s) => readOpenCompetitionCard(s, ''),
  'open competition card, one game read': (s) => readOpenCompetitionCard(s, `/${BT11}`),
};

/** Each request the web framework answers before api.py sees it, or routes otherwise than ours would. */
const FRAMEWORK_ANSWERS: Record<string, (s: Start) => Promise<Answer>> = {
  'unknown path': (s) => ask(s.url, '/no/such/path'),
  'OPTIONS of an unknown path': (s) => ask(s.url, '/no/such/path', { method: 'OPTIONS' }),
  'card page': (s) => ask(s.url, `/scorecards/${s.card}`),
  'PUT /api/games': (s) => ask(s.url, '/api/games', { method: 'PUT' }),
  'POST /api/scorecard/{card}': (s) => ask(s.url, `/api/scorecard/${s.card}`, { method: 'POST', json: {} }),
  'GET /api/cmd/RESET': (s) => ask(s.url, '/api/cmd/RESET'),
  'DELETE /api/healthcheck': (s) => ask(s.url, '/api/healthcheck', { method: 'DELETE' }),
  'OPTIONS /api/games': (s) => ask(s.url, '/api/games', { method: 'OPTIONS' }),
  'OPTIONS /api/cmd/ACTION6': (s) => ask(s.url, '/api/cmd/ACTION6', { method: 'OPTIONS' }),
  'GET /api/scorecard/open': (s) => ask(s.url, '/api/scorecard/open'),
  'HEAD /api/scorecard/close': (s) => ask(s.url, '/api/scorecard/close', { method: 'HEAD' }),
  'body not JSON': (s) => ask(s.url, '/api/scorecard/open', { body: '{not json', headers: JSON_TYPE }),
  'body empty': (s) => ask(s.url, '/api/cmd/ACTION1', { body: '', headers: JSON_TYPE }),
  'body without Content-Type': (s) => ask(s.url, '/api/scorecard/open', { body: '{}' }),
  'body as text/plain': (s) => ask(s.url, '/api/cmd/ACTION1', { body: '{}', headers: { 'content-type': 'text/plain' } }),
  'body as a form': (s) => ask(s.url, '/api/scorecard/close', { body: 'card_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  'health check': (s) => ask(s.url, '/api/healthcheck'),
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The answer with the server's own ids named by the role they play in the case. */
function comparable(answer: Answer, s: Start): Answer {
  return { ...answer, text: answer.text.replaceAll(s.card, '<card>').replaceAll(s.guid, '<guid>').replace(UUID, '<id>') };
}

async function bothAnswer(send: (s: Start) => Promise<Answer>): Promise<{ expected: Answer; got: Answer }> {
  const [fromOfficial, fromOurs] = await Promise.all([start(servers.official.url), start(servers.ours.url)]);
  const [expected, got] = await Promise.all([send(fromOfficial), send(fromOurs)]);
  return { expected: comparable(expected, fromOfficial), got: comparable(got, fromOurs) };
}

describe('serve --dialect toolkit refuses as the official toolkit server does', () => {
  it.each(Object.keys(REFUSALS))('%s: the same status line, Content-Type and message', async (name) => {
    const { expected, got } = await bothAnswer(REFUSALS[name]!);
    expect(expected.statusLine, 'the case is a refusal on the official server').toMatch(/^4\d\d /);
    expect(got).toEqual(expected);
  });

  it.each(Object.keys(FRAMEWORK_ANSWERS))('%s: the same page, byte for byte', async (name) => {
    const { expected, got } = await bothAnswer(FRAMEWORK_ANSWERS[name]!);
    expect(got).toEqual(expected);
  });

  it('a second card of a server in competition mode: 409 in the same words', async () => {
    const headers = { 'x-api-key': 'second-competition-card' };
    const openOfficial = () => ask(servers.officialInCompetition!.url, '/api/scorecard/open', { json: {}, headers });
    const openOurs = () => ask(servers.oursInCompetition!.url, '/api/scorecard/open', { json: {}, headers });
    expect([(await openOfficial()).statusLine, (await openOurs()).statusLine]).toEqual(['200 OK', '200 OK']);
    const [expected, got] = [await openOfficial(), await openOurs()];
    expect(expected.statusLine).toBe('409 CONFLICT');
    expect(got).toEqual(expected);
  });

  it('a body over our limit (the toolkit has none): the page Werkzeug answers 413 with', async () => {
    const werkzeugPage = execFileSync(
      'python3',
      ['-c', 'import sys; from werkzeug.exceptions import RequestEntityTooLarge as E; sys.stdout.write(E().get_body())'],
      {
        encoding: 'utf8',
      },
    );
    const got = await ask(servers.ours.url, '/api/scorecard/open', { body: JSON.stringify({ opaque: 'x'.repeat(2 * 1024 * 1024) }), headers: JSON_TYPE });
    expect(got).toEqual({ statusLine: '413 REQUEST ENTITY TOO LARGE', type: 'text/html; charset=utf-8', allow: [], text: werkzeugPage });
  });
});
