/**
 * `--dialect toolkit` (docs/protocol.md §7a): the server answers as the official toolkit's reference server does
 * wherever a client could tell, while it plays and scores exactly as in the default dialect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReferenceService } from '../src/reference/index.ts';
import { startServer, type RunningServer } from '../src/reference/server/index.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';
import { sendRequest } from './support/httpDriver.ts';

const running: RunningServer[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

const THREE = threeLevels.info.id;

async function serve(dialect?: 'toolkit', backendCount = 1) {
  const server = await startServer({ serviceOptions: { games: fixtureGames(), seed: 5 }, backendCount, ...(dialect ? { dialect } : {}) });
  running.push(server);
  return server;
}

/** A caller of one server with one key (none: no X-API-Key header). */
function caller(url: string, key: string | null = 'dialect-key') {
  const headers: Record<string, string> = key === null ? {} : { 'x-api-key': key };
  const raw = (path: string, json?: unknown) => sendRequest(url, path, { headers, ...(json === undefined ? {} : { json }) });
  const call = async (path: string, json?: unknown) => {
    const answer = await raw(path, json);
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  return { raw, call };
}

/** Plays one session with a level reset and a full reset; returns every answer's body. */
async function playOnce(url: string) {
  const { call } = caller(url);
  const games = await call('/api/games');
  const game = await call(`/api/games/${THREE}`);
  const { card_id } = await call('/api/scorecard/open', {});
  const first = await call('/api/cmd/RESET', { game_id: THREE, card_id });
  const moved = await call('/api/cmd/ACTION2', { game_id: THREE, guid: first.guid, reasoning: { why: 'test' } });
  const levelReset = await call('/api/cmd/RESET', { game_id: THREE, guid: first.guid });
  const fullReset = await call('/api/cmd/RESET', { game_id: THREE, guid: first.guid });
  await call('/api/cmd/ACTION1', { game_id: THREE, guid: first.guid });
  await call('/api/cmd/ACTION1', { game_id: THREE, guid: first.guid }); // level 1 done
  const whole = await call(`/api/scorecard/${card_id}`);
  const perGame = await call(`/api/scorecard/${card_id}/${THREE}`);
  const bySlug = await call(`/api/scorecard/${card_id}/thre`);
  const closed = await call('/api/scorecard/close', { card_id });
  return { card_id, games, game, frames: [first, moved, levelReset, fullReset], whole, perGame, bySlug, closed };
}

describe('the toolkit dialect', () => {
  it('leaves out baselines, the order of games, full_reset, and card and run fields; scores the same', async () => {
    const expected = await playOnce((await serve()).url);
    const got = await playOnce((await serve('toolkit')).url);

    expect(expected.frames.map((f) => f.full_reset)).toEqual([true, false, false, true]);
    expect(got.frames.map((f) => f.full_reset)).toEqual([false, false, false, false]);
    // A reasoning is always echoed, null when none was sent.
    expect(got.frames.map((f) => f.action_input.reasoning)).toEqual([null, { why: 'test' }, null, null]);
    // A RESET of a session echoes its game, as every action does; only the RESET that starts one echoes {}.
    expect(got.frames.map((f) => f.action_input.data)).toEqual([{}, { game_id: THREE }, { game_id: THREE }, { game_id: THREE }]);
    expect(expected.frames.map((f) => f.action_input.data)).toEqual([{}, { game_id: THREE }, {}, {}]);
    const comparable = (f: any) => ({ ...f, full_reset: undefined, action_input: { ...f.action_input, data: undefined, reasoning: undefined } });
    expect(got.frames.map(comparable)).toEqual(expected.frames.map(comparable));

    const ids = (list: Array<{ game_id: string }>) => list.map((g) => g.game_id);
    expect(ids(got.games)).not.toEqual(ids(expected.games));
    expect([...ids(got.games)].sort()).toEqual([...ids(expected.games)].sort());
    for (const game of [...got.games, got.game]) expect(game).not.toHaveProperty('baseline_actions');
    // The same date, written as the toolkit's server writes dates (pydantic: no fraction when it is 0).
    expect(got.game).toEqual({ ...expected.game, baseline_actions: undefined, date_downloaded: '2025-01-01T00:00:00Z' });

    for (const card of [got.whole, got.closed]) {
      for (const field of ['open_at', 'last_update', 'published_at', 'user_id', 'user_name']) expect(card).not.toHaveProperty(field);
      expect(card.environments[0].runs).toHaveLength(2);
      for (const run of card.environments[0].runs) {
        for (const field of ['id', 'number_of_levels', 'number_of_environments']) expect(run).not.toHaveProperty(field);
        expect(run.level_baseline_actions).toEqual(threeLevels.info.baselineActions);
      }
    }
    const scores = (card: any) => [card.score, card.total_actions, card.environments[0].score, card.environments[0].runs.map((r: any) => [r.score, r.actions])];
    expect(scores(got.closed)).toEqual(scores(expected.closed));
  });

  it('answers the per-game scorecard path with the card’s totals and the game’s plays, no scores or baselines; a bare slug finds no plays', async () => {
    const got = await playOnce((await serve('toolkit')).url);
    const [firstGuid] = [got.frames[0].guid];
    expect(got.perGame).toEqual({
      won: 0,
      played: 1,
      total_actions: 4,
      levels_completed: 1,
      cards: {
        [THREE]: {
          game_id: THREE,
          actions: [2, 2],
          // Per play, [levels completed, the play's actions then] at each completion.
          actions_by_level: [[], [[1, 2]]],
          guids: [firstGuid, firstGuid],
          levels_completed: [0, 1],
          resets: [1, 0],
          states: ['NOT_FINISHED', 'NOT_FINISHED'],
          total_actions: 4,
          total_plays: 2,
        },
      },
    });
    // The totals are the whole card's, whatever game is asked for.
    expect(got.bySlug).toEqual({ won: 0, played: 1, total_actions: 4, levels_completed: 1, cards: {} });
  });

  it('drops a closed card: reading it answers 404', async () => {
    const server = await serve('toolkit');
    const { raw, call } = caller(server.url);
    const { card_id } = await call('/api/scorecard/open', {});
    await call('/api/cmd/RESET', { game_id: THREE, card_id });
    await call('/api/scorecard/close', { card_id });
    expect((await raw(`/api/scorecard/${card_id}`)).status).toBe(404);
    expect((await raw(`/api/scorecard/${card_id}/${THREE}`)).status).toBe(404);
  });

  it('echoes a bare slug of a RESET as the frame’s game_id', async () => {
    const { call } = caller((await serve('toolkit')).url);
    const { card_id } = await call('/api/scorecard/open', {});
    const frame = await call('/api/cmd/RESET', { game_id: 'thre', card_id });
    expect(frame.game_id).toBe('thre');
    expect((await call('/api/cmd/RESET', { game_id: THREE, card_id })).game_id).toBe(THREE);
  });

  it('answers the health check with okay as text, accepts any key, none and an empty one too, and sets no cookies', async () => {
    const server = await serve('toolkit');
    const health = await sendRequest(server.url, '/api/healthcheck');
    expect([health.status, health.text, health.headers['content-type']]).toEqual([200, 'okay', 'text/plain']);
    for (const key of [null, '', 'anything-at-all']) {
      const { raw, call } = caller(server.url, key);
      const games = await raw('/api/games');
      expect(games.status, `key ${JSON.stringify(key)}`).toBe(200);
      expect(games.setCookies).toEqual([]);
      const { card_id } = await call('/api/scorecard/open', {});
      const frame = await raw('/api/cmd/RESET', { game_id: THREE, card_id });
      expect(frame.status).toBe(200);
      expect(frame.setCookies).toEqual([]);
    }
    // Behind several backends a balancer still routes by its cookie.
    const balanced = await serve('toolkit', 2);
    expect((await caller(balanced.url).raw('/api/games')).setCookies.length).toBeGreaterThan(0);
  });

  it('refuses a RESET without card_id and an action without guid with SERVER_ERROR, another key’s session with VALIDATION_ERROR', async () => {
    for (const [dialect, codes] of [
      [undefined, ['VALIDATION_ERROR', 'VALIDATION_ERROR', 'SERVER_ERROR']],
      ['toolkit', ['SERVER_ERROR', 'SERVER_ERROR', 'VALIDATION_ERROR']],
    ] as const) {
      const server = await serve(dialect);
      const { raw, call } = caller(server.url);
      const { card_id } = await call('/api/scorecard/open', {});
      const { guid } = await call('/api/cmd/RESET', { game_id: THREE, card_id });
      const answers = [
        await raw('/api/cmd/RESET', { game_id: THREE }),
        await raw('/api/cmd/ACTION1', { game_id: THREE }),
        await caller(server.url, 'another-key').raw('/api/cmd/ACTION1', { game_id: THREE, guid }),
      ];
      expect(
        answers.map((a) => [a.status, a.body.error]),
        dialect ?? 'arcbench',
      ).toEqual(codes.map((code) => [400, code]));
      // The refused action of the other key was not counted.
      expect((await call(`/api/scorecard/${card_id}`)).total_actions).toBe(0);
    }
  });

  it('answers a request it cannot route or parse with an HTML page, as the toolkit’s web framework does', async () => {
    for (const dialect of [undefined, 'toolkit'] as const) {
      const server = await serve(dialect);
      const headers = { 'x-api-key': 'k', 'content-type': 'application/json' };
      const answers = [
        await sendRequest(server.url, '/api/nowhere', { headers }),
        await sendRequest(server.url, '/api/games', { method: 'DELETE', headers: { 'x-api-key': 'k' } }),
        await sendRequest(server.url, '/api/cmd/RESET', { method: 'POST', headers, body: '{"game_id": ' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([404, 405, 400]);
      for (const answer of answers) {
        if (dialect === 'toolkit') {
          expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(answer.text).toMatch(new RegExp(`^<!doctype html>[\\s\\S]*<title>${answer.status} `));
        } else expect(answer.body.error).toBe(answer.status === 404 ? 'SERVER_ERROR' : 'VALIDATION_ERROR');
      }
    }
  });
});

describe('the services behind a server', () => {
  it('must play competition cards by the dialect’s rules: a service built for another is refused, naming the rules', async () => {
    const hosted = new ReferenceService({ games: fixtureGames() });
    await expect(startServer({ backends: [hosted], dialect: 'toolkit' })).rejects.toThrow(/competitionRules 'toolkit', got 'hosted'/);
    const toolkit = new ReferenceService({ games: fixtureGames(), competitionRules: 'toolkit' });
    await expect(startServer({ backends: [toolkit] })).rejects.toThrow(/competitionRules 'hosted', got 'toolkit'/);
    await expect(startServer({ dialect: 'arcbench', competition: true })).rejects.toThrow(/competition mode for the whole server is the toolkit's/);
  });
});
