/**
 * Competition cards on `arcbench serve --dialect toolkit` against the official toolkit's own server
 * (docs/protocol.md §7a, src/reference/competitionRules.ts): a RESET at a level's very start repeats the
 * session's last answer without playing and is counted as that answer's action was; a RESET after a win
 * starts a new run; any value of competition_mode asks for a competition card, and there is no limit on
 * open cards. With `--competition`, as the toolkit's server in competition mode (Kaggle's gateway): every
 * card competes and the server opens one in its life. Same requests, same answers, ids aside.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startToolkitServers, type ToolkitServers } from './support/toolkitServerPairs.ts';
import { conversation, type Exchange, expectSameAnswers } from './support/toolkitExchanges.ts';

const BT11 = 'bt11-fd9df0622a1a';
const BT33 = 'bt33-a7c3f9d18b4e';
const KEY = { 'x-api-key': 'toolkit-competition' };

let servers: ToolkitServers;
beforeAll(async () => {
  servers = await startToolkitServers({ competition: true });
}, 60_000);
afterAll(() => servers?.stop());

const ACTION3_TIMES_PER_LEVEL = [4, 8, 16, 20, 24];

/**
 * bt33's repeats: of the session's first answer, of a level reset, with a reasoning of its own (not
 * echoed: nothing is played), of a completing click (its two grids), and named by the bare slug. bt11: won,
 * then RESET (a new run, as outside competition), repeated, and a level reset.
 */
async function playCompetitionCard(url: string): Promise<Exchange[]> {
  const { exchanges, ask } = conversation(url, KEY);
  const { card_id } = await ask('open, competition_mode false', '/api/scorecard/open', { competition_mode: false });
  await ask('read it', `/api/scorecard/${card_id}`);
  await ask('a second open card', '/api/scorecard/open', { competition_mode: true });
  const { guid } = await ask('bt33 RESET', '/api/cmd/RESET', { game_id: BT33, card_id });
  const reset = (what: string, extra: object = {}) => ask(what, '/api/cmd/RESET', { game_id: BT33, guid, ...extra });
  const click = (what: string, extra: object = {}) => ask(what, '/api/cmd/ACTION6', { game_id: BT33, guid, x: 0, y: 0, ...extra });
  await reset('RESET at the start');
  await click('click with a reasoning', { reasoning: { why: 'try' } });
  await reset('level RESET');
  await reset('RESET after a level RESET');
  await reset('RESET with a reasoning', { reasoning: 'again' });
  for (let i = 1; i <= 4; i++) await click(`click #${i}`);
  await reset('RESET after a completion');
  await ask('RESET by the slug', '/api/cmd/RESET', { game_id: 'bt33', guid });
  const bt11 = await ask('bt11 RESET', '/api/cmd/RESET', { game_id: BT11, card_id });
  for (const [level, times] of ACTION3_TIMES_PER_LEVEL.entries())
    for (let i = 1; i <= times; i++) await ask(`bt11 level ${level + 1} ACTION3 #${i}`, '/api/cmd/ACTION3', { game_id: BT11, guid: bt11.guid });
  await ask('RESET after the win', '/api/cmd/RESET', { game_id: BT11, guid: bt11.guid });
  await ask('RESET again', '/api/cmd/RESET', { game_id: BT11, guid: bt11.guid });
  await ask('bt11 ACTION3', '/api/cmd/ACTION3', { game_id: BT11, guid: bt11.guid });
  await ask('bt11 level RESET', '/api/cmd/RESET', { game_id: BT11, guid: bt11.guid });
  await ask('close', '/api/scorecard/close', { card_id });
  return exchanges;
}

/** The server in competition mode: the first card competes whatever the open says, and no second card opens, even once it closed. */
async function useCompetitionServer(url: string): Promise<Exchange[]> {
  const { exchanges, ask } = conversation(url, KEY);
  const { card_id } = await ask('open', '/api/scorecard/open', {});
  await ask('read it', `/api/scorecard/${card_id}`);
  await ask('a second open', '/api/scorecard/open', {});
  const { guid } = await ask('RESET', '/api/cmd/RESET', { game_id: BT11, card_id });
  await ask('RESET at the start', '/api/cmd/RESET', { game_id: BT11, guid });
  await ask('close', '/api/scorecard/close', { card_id });
  await ask('open after the close', '/api/scorecard/open', {});
  return exchanges;
}

describe('competition cards of serve --dialect toolkit and of the official toolkit server', () => {
  it('answer alike: repeated answers at a level’s start, a new run after a win, any competition_mode, many open cards', async () => {
    expectSameAnswers(await playCompetitionCard(servers.ours.url), await playCompetitionCard(servers.official.url));
  }, 120_000);

  it('answer alike in competition mode: every card competes, one card in the server’s life', async () => {
    expectSameAnswers(await useCompetitionServer(servers.oursInCompetition!.url), await useCompetitionServer(servers.officialInCompetition!.url));
  }, 60_000);
});
