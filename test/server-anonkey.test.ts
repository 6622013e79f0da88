/**
 * GET /api/games/anonkey (docs/protocol.md §2): the official toolkit asks for a key there when it has none. It needs
 * no key, and the key it answers then works on that server: on every backend, also when the server
 * accepts only a fixed list of keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../src/reference/index.ts';
import { startServer } from '../src/reference/server/index.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest } from './support/httpDriver.ts';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

describe('anonymous keys', () => {
  it('are served without a key and then accepted by every backend of a server with fixed keys', async () => {
    const keys = new Map([['only-this-key', { user_name: 'alice', user_id: 'u-1' }]]);
    const server = await startServer({ backendCount: 3, keys, serviceOptions: { games: fixtureGames() } });
    running.push(server);

    const issued = await sendRequest(server.url, '/api/games/anonkey');
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body).toEqual({ api_key: expect.any(String) });
    const key = issued.body.api_key as string;
    expect(key).toMatch(/^[\x21-\x7e]{16,}$/);

    // Cookieless requests go round robin: three in a row reach all three backends.
    for (let i = 0; i < 3; i++) {
      const games = await sendRequest(server.url, '/api/games', { headers: { 'x-api-key': key } });
      expect(games.status, games.text).toBe(200);
    }
    const open = await sendRequest(server.url, '/api/scorecard/open', { headers: { 'x-api-key': key }, json: {} });
    expect(open.status, open.text).toBe(200);
    const card = await sendRequest(server.url, `/api/scorecard/${open.body.card_id}`, {
      headers: { 'x-api-key': key, cookie: open.setCookies.map((c) => c.split(';')[0]).join('; ') },
    });
    expect(card.body.user_name).toMatch(/^anonymous-/);

    // Two anonymous keys are two users; a forged or altered one is refused like any unknown key.
    const other = (await sendRequest(server.url, '/api/games/anonkey')).body.api_key as string;
    expect(other).not.toBe(key);
    const forged = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect((await sendRequest(server.url, '/api/games', { headers: { 'x-api-key': forged } })).status).toBe(401);
    expect((await sendRequest(server.url, '/api/games', { headers: { 'x-api-key': 'made-up' } })).status).toBe(401);
  });

  it('still lets /api/games/{id} find games, and other methods get 405', async () => {
    const server = await startServer({ serviceOptions: { games: fixtureGames() } });
    running.push(server);
    const game = await sendRequest(server.url, `/api/games/${threeLevels.info.id}`, { headers: { 'x-api-key': 'k' } });
    expect(game.body.game_id).toBe(threeLevels.info.id);
    expect((await sendRequest(server.url, '/api/games/anonkey', { method: 'POST', json: {} })).status).toBe(405);
  });

  it('is offered by the library too: the key then authenticates', () => {
    const service = new ReferenceService({ games: fixtureGames(), keys: new Map([['k', { user_name: 'a', user_id: 'b' }]]) });
    const { api_key: key } = service.anonymousKey();
    expect(service.listGames(key).length).toBeGreaterThan(0);
    expect(() => service.listGames(`anon-${'0'.repeat(32)}-${'0'.repeat(32)}`)).toThrow(/unknown X-API-Key/);
  });
});
