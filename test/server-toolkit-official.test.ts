/**
 * `arcbench serve --dialect toolkit` against the official toolkit's own server (docs/protocol.md §7a): the same
 * requests, over the toolkit's test games, get the same answers, byte for byte where a client could read
 * them (status, Content-Type, key order, `0` against `0.0`, error messages and pages), ids aside. The one
 * difference kept is named. Each refusal is compared in test/server-toolkit-official-refusals.test.ts.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startToolkitServers, type ToolkitServers } from './support/toolkitServerPairs.ts';
import { conversation, type Exchange, expectSameAnswers } from './support/toolkitExchanges.ts';

const BT11 = 'bt11-fd9df0622a1a';
const BT33 = 'bt33-a7c3f9d18b4e';
const KEY = { 'x-api-key': 'toolkit-fidelity' };

let servers: ToolkitServers;
beforeAll(async () => {
  servers = await startToolkitServers();
}, 60_000);
afterAll(() => servers?.stop());

/**
 * bt33's left button, as often as each level is half wide: 4, 8, 16, 20, 24 clicks; the last two levels
 * are letterboxed. Its metadata has baselines for 3 of its 5 levels.
 */
const winningClicks = [...Array(28).fill([0, 0]), ...Array(20).fill([12, 12]), ...Array(24).fill([8, 8])] as [number, number][];

/**
 * One server's answers: the games listed and described; bt33 begun first (so its tags come first in
 * tags_scores) and played one click past the 3 levels it has baselines for; bt11 in two runs, the first
 * completing a level and resetting one, a second RESET then starting the second run, which completes two
 * levels (so a tag's score shows which runs it pools); and the edges probed.
 */
async function converse(url: string): Promise<Exchange[]> {
  const { exchanges, ask } = conversation(url, KEY);
  await ask('open with [1]', '/api/scorecard/open', undefined, '[1]');
  await ask('close with [1]', '/api/scorecard/close', undefined, '[1]');
  await ask('action with [1]', '/api/cmd/ACTION1', undefined, '[1]');
  // Flask reads any application/…+json body as JSON.
  for (const type of ['application/vnd.api+json', 'application/problem+json; charset=utf-8', 'text/plain'])
    await ask(`open as ${type}`, '/api/scorecard/open', undefined, '{"tags": ["typed"]}', type);
  for (const path of ['/api/games', `/api/games/${BT11}`, '/api/games/bt33']) await ask(`GET ${path}`, path);
  const { card_id } = await ask('open', '/api/scorecard/open', {});
  const clicker = await ask('bt33 RESET', '/api/cmd/RESET', { game_id: BT33, card_id });
  const { guid } = await ask('first RESET', '/api/cmd/RESET', { game_id: BT11, card_id });
  for (let i = 0; i < 5; i++) await ask(`ACTION3 #${i + 1}`, '/api/cmd/ACTION3', { game_id: BT11, guid });
  await ask('level RESET', '/api/cmd/RESET', { game_id: BT11, guid });
  await ask('second RESET: a full reset, a second run', '/api/cmd/RESET', { game_id: BT11, guid });
  for (let i = 0; i < 12; i++) await ask(`second run ACTION3 #${i + 1}`, '/api/cmd/ACTION3', { game_id: BT11, guid });
  for (const [i, [x, y]] of winningClicks.slice(0, 29).entries())
    await ask(`ACTION6 #${i + 1}`, '/api/cmd/ACTION6', { game_id: BT33, guid: clicker.guid, x, y });
  // An empty guid is none: with a card, a new session.
  const third = await ask('RESET with an empty guid', '/api/cmd/RESET', { game_id: BT11, card_id, guid: '' });
  await ask('its ACTION3', '/api/cmd/ACTION3', { game_id: BT11, guid: third.guid });
  for (const game of [BT11, BT33, 'bt11', 'zzzz']) await ask(`game card ${game}`, `/api/scorecard/${card_id}/${game}`);
  await ask('card', `/api/scorecard/${card_id}`);
  await ask('card page', `/scorecards/${card_id}`);
  await ask('close', '/api/scorecard/close', { card_id });
  await ask('closed card', `/api/scorecard/${card_id}`);
  await ask('health', '/api/healthcheck');
  return exchanges;
}

/** A competition card: unreadable while open (the card and the game's plays), its game's one session, and its close. */
async function converseInCompetition(url: string): Promise<Exchange[]> {
  const { exchanges, ask } = conversation(url, KEY);
  const { card_id } = await ask('open', '/api/scorecard/open', { competition_mode: true });
  const { guid } = await ask('RESET', '/api/cmd/RESET', { game_id: BT11, card_id });
  for (let i = 0; i < 4; i++) await ask(`ACTION3 #${i + 1}`, '/api/cmd/ACTION3', { game_id: BT11, guid });
  await ask('card', `/api/scorecard/${card_id}`);
  await ask('game card', `/api/scorecard/${card_id}/${BT11}`);
  await ask('second session of the game', '/api/cmd/RESET', { game_id: BT11, card_id });
  await ask('close', '/api/scorecard/close', { card_id });
  return exchanges;
}

describe('serve --dialect toolkit and the official toolkit server', () => {
  it('answer the same requests alike, status, Content-Type and text', async () => {
    expectSameAnswers(await converse(servers.ours.url), await converse(servers.official.url));
  }, 120_000);

  it('answer a competition card alike, the games it never played entering it at close', async () => {
    expectSameAnswers(await converseInCompetition(servers.ours.url), await converseInCompetition(servers.official.url));
  }, 60_000);
});
