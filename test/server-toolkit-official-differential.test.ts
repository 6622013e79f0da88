/**
 * `arcbench serve --dialect toolkit` and the official toolkit server, driven by the same random
 * conversations (fast-check): sessions of both test games started, reset at any moment, played with
 * any action (those a game does not offer too, clicks anywhere, reasonings now and then), their plays
 * and card read, on plain and competition cards, then closed. Every answer must be the same, ids aside:
 * the fixed conversations of the other toolkit tests cannot think of every order of events.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startToolkitServers, type ToolkitServers } from './support/toolkitServerPairs.ts';
import { conversation, type Exchange, expectSameAnswers } from './support/toolkitExchanges.ts';

const GAMES = ['bt11-fd9df0622a1a', 'bt33-a7c3f9d18b4e'] as const;
const KEY = { 'x-api-key': 'toolkit-differential' };

let servers: ToolkitServers;
beforeAll(async () => {
  servers = await startToolkitServers();
}, 60_000);
afterAll(() => servers?.stop());

type Step =
  | { kind: 'start'; game: number }
  | { kind: 'reset'; game: number; bySlug: boolean }
  | { kind: 'act'; game: number; action: number; x: number; y: number; reasoning: boolean }
  | { kind: 'read'; game: number; whole: boolean };

const game = fc.integer({ min: 0, max: GAMES.length - 1 });
/** True one time in eight. */
const rarely = fc.integer({ min: 0, max: 7 }).map((n) => n === 0);
/** Clicks where bt33's buttons and borders are, and anywhere. */
const coordinate = fc.oneof(fc.constantFrom(0, 8, 12, 30, 63), fc.integer({ min: 0, max: 63 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('start' as const), game }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reset' as const), game, bySlug: rarely }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), game, whole: fc.boolean() }) },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('act' as const),
      game,
      action: fc.oneof(fc.constant(6), fc.integer({ min: 1, max: 7 })),
      x: coordinate,
      y: coordinate,
      reasoning: rarely,
    }),
  },
);

/** One server's answers to `steps` on a card of its own. */
async function play(url: string, competition: boolean, steps: readonly Step[]): Promise<Exchange[]> {
  const { exchanges, ask } = conversation(url, KEY);
  const { card_id } = await ask('open', '/api/scorecard/open', competition ? { competition_mode: true } : {});
  const sessions = new Map<number, string>();
  for (const [i, s] of steps.entries()) {
    const gameId = GAMES[s.game]!;
    const guid = sessions.get(s.game);
    const what = `#${i} ${JSON.stringify(s)}`;
    if (s.kind === 'start' || (guid === undefined && s.kind !== 'read')) {
      const started = await ask(what, '/api/cmd/RESET', { game_id: gameId, card_id });
      if (typeof started?.guid === 'string') sessions.set(s.game, started.guid);
    } else if (s.kind === 'reset') await ask(what, '/api/cmd/RESET', { game_id: s.bySlug ? gameId.split('-')[0] : gameId, guid });
    else if (s.kind === 'read') await ask(what, s.whole ? `/api/scorecard/${card_id}` : `/api/scorecard/${card_id}/${gameId}`);
    else {
      const click = s.action === 6 ? { x: s.x, y: s.y } : {};
      await ask(what, `/api/cmd/ACTION${s.action}`, { game_id: gameId, guid, ...click, ...(s.reasoning ? { reasoning: { step: i } } : {}) });
    }
  }
  await ask('close', '/api/scorecard/close', { card_id });
  return exchanges;
}

describe('serve --dialect toolkit and the official toolkit server, in random conversations', () => {
  it('answer every request alike, on plain and competition cards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(step, { minLength: 20, maxLength: 120, size: 'max' }), async (competition, steps) => {
        expectSameAnswers(await play(servers.ours.url, competition, steps), await play(servers.official.url, competition, steps));
      }),
      { numRuns: 20 },
    );
  }, 240_000);
});
