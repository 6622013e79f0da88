/**
 * `--dialect toolkit` (docs/protocol.md §7a): the server answers as the official toolkit's sparser reference server
 * does, while it plays and scores exactly as in the default dialect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/reference/server/index.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest } from './support/httpDriver.ts';

const running: RunningServer[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

/** Plays one session with a level reset and a full reset; returns every answer's body. */
async function playOnce(url: string) {
  const headers = { 'x-api-key': 'dialect-key' };
  const call = async (path: string, json?: unknown) => {
    const answer = await sendRequest(url, path, { headers, ...(json === undefined ? {} : { json }) });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const games = await call('/api/games');
  const game = await call(`/api/games/${threeLevels.info.id}`);
  const { card_id } = await call('/api/scorecard/open', {});
  const first = await call('/api/cmd/RESET', { game_id: threeLevels.info.id, card_id });
  const moved = await call('/api/cmd/ACTION2', { game_id: threeLevels.info.id, guid: first.guid });
  const levelReset = await call('/api/cmd/RESET', { game_id: threeLevels.info.id, guid: first.guid });
  const fullReset = await call('/api/cmd/RESET', { game_id: threeLevels.info.id, guid: first.guid });
  const perGame = await call(`/api/scorecard/${card_id}/${threeLevels.info.id}`);
  const closed = await call('/api/scorecard/close', { card_id });
  return { games, game, frames: [first, moved, levelReset, fullReset], perGame, closed };
}

describe('the toolkit dialect', () => {
  it('leaves out baselines, run entry ids and counts, full_reset, and the order of games; scores the same', async () => {
    const full = await startServer({ serviceOptions: { games: fixtureGames(), seed: 5 } });
    const sparse = await startServer({ serviceOptions: { games: fixtureGames(), seed: 5 }, dialect: 'toolkit' });
    running.push(full, sparse);
    const expected = await playOnce(full.url);
    const got = await playOnce(sparse.url);

    expect(expected.frames.map((f) => f.full_reset)).toEqual([true, false, false, true]);
    expect(got.frames.map((f) => f.full_reset)).toEqual([false, false, false, false]);
    expect(got.frames.map((f) => ({ ...f, full_reset: undefined }))).toEqual(expected.frames.map((f) => ({ ...f, full_reset: undefined })));

    const ids = (list: Array<{ game_id: string }>) => list.map((g) => g.game_id);
    expect(ids(got.games)).not.toEqual(ids(expected.games));
    expect([...ids(got.games)].sort()).toEqual([...ids(expected.games)].sort());
    for (const game of [...got.games, got.game]) expect(game).not.toHaveProperty('baseline_actions');
    expect(got.game).toEqual({ ...expected.game, baseline_actions: undefined });

    for (const card of [got.perGame, got.closed]) {
      expect(card.environments[0].runs).toHaveLength(2);
      for (const run of card.environments[0].runs) {
        for (const field of ['id', 'number_of_levels', 'number_of_environments']) expect(run).not.toHaveProperty(field);
        expect(run.level_baseline_actions).toEqual(threeLevels.info.baselineActions);
      }
    }
    const scores = (card: any) => [card.score, card.total_actions, card.environments[0].score, card.environments[0].runs.map((r: any) => [r.score, r.actions])];
    expect(scores(got.closed)).toEqual(scores(expected.closed));
  });
});
