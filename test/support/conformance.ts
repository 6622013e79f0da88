/**
 * The conformance suite of docs/protocol.md §2–§6: every rule, every worked check by its numbers, every error row.
 * It builds its own ReferenceService per test (fixture games, a clock the test moves, a fixed seed)
 * and reaches it only through a ServiceDriver, so the same suite proves the library and the HTTP server.
 * The service object itself is used only for what no endpoint does: sweep().
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { GRID_CELLS, GRID_SIZE } from '../../src/protocol/index.ts';
import { ReferenceService, type ReferenceServiceOptions } from '../../src/reference/index.ts';
import { ANIMATION_FRAMES, GOAL_CELL, LEVEL_CELL, PROGRESS_CELL } from '../fixtures/scriptedGame.ts';
import { clickGame, fixtureGames, sixLevels, tagGameA, tagGameB, threeLevels, threeLevelsOld, tightBudget } from '../fixtures/fixtureGames.ts';
import { DEFAULT_TEST_KEY, type DriverKey, type DriverResponse, type ServiceDriver } from './serviceDriver.ts';

export type MakeDriver = (service: ReferenceService) => Promise<{ driver: ServiceDriver; dispose(): Promise<void> }>;

/**
 * How the driver's server speaks (docs/protocol.md §7a): `toolkit` answers as the official toolkit's server, and
 * the suite expects its differences where a client could tell, rule by rule; the service underneath is
 * the same, so every count and score is.
 */
export type SuiteDialect = 'arcbench' | 'toolkit';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const MINUTE = 60_000;
const SEED = 20250101;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OTHER_KEY = 'conformance-key-2';
const THREE = threeLevels.info.id;
const SIX = sixLevels.info.id;
const TIGHT = tightBudget.info.id;
const CLICK = clickGame.info.id;

/** A clock the test moves by hand. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createTestClock(start = T0): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The first grid of a frame body (every answer has at least one, docs/protocol.md §3). */
export function firstGridOf(body: { frame: unknown }): Uint8Array {
  const [first] = gridsOf(body);
  if (first === undefined) throw new Error('a frame response with no grid; docs/protocol.md §3 says there is at least one');
  return first;
}

/** The grids of a frame body, whether the driver kept Uint8Arrays or carried rows of numbers. */
export function gridsOf(body: { frame: unknown }): Uint8Array[] {
  const frames = body.frame as unknown[];
  return frames.map((grid) => {
    if (grid instanceof Uint8Array) return grid;
    const rows = grid as number[][];
    const flat = new Uint8Array(GRID_CELLS);
    for (const [y, row] of rows.entries()) flat.set(row, y * GRID_SIZE);
    return flat;
  });
}

const sameGrid = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

export function defineConformanceSuite(label: string, makeDriver: MakeDriver, dialect: SuiteDialect = 'arcbench'): void {
  const toolkit = dialect === 'toolkit';
  /** What a frame says of a full reset: the toolkit's always say false. */
  const fullReset = (value: boolean) => (toolkit ? false : value);
  /** An echoed action_input: the toolkit's always carries a reasoning, null when none was sent. */
  const echoed = (input: object) => (toolkit && !('reasoning' in input) ? { ...input, reasoning: null } : input);
  /** Fields of a card the toolkit does not keep, expected as `value` in the full dialect. */
  const cardField = (value: unknown) => (toolkit ? undefined : value);

  describe(`reference service conformance (${label})`, () => {
    const disposers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (disposers.length > 0) await disposers.pop()!();
    });

    async function start(options: Partial<ReferenceServiceOptions> = {}) {
      const clock = createTestClock();
      const competitionRules = toolkit ? 'toolkit' : 'hosted';
      const service = new ReferenceService({ games: fixtureGames(), now: clock.now, seed: SEED, competitionRules, ...options });
      const made = await makeDriver(service);
      disposers.push(() => made.dispose());
      const d = made.driver;

      const ok = (res: DriverResponse) => {
        expect(res.status, `expected 200, got ${res.status} ${JSON.stringify(res.body)}`).toBe(200);
        return res.body;
      };
      const open = async (body: unknown = {}, key?: DriverKey): Promise<string> => ok(await d.open(body, key)).card_id;
      const reset = async (gameId: string, ids: { card_id?: string; guid?: string }, key?: DriverKey) =>
        ok(await d.command('RESET', { game_id: gameId, ...ids }, key));
      const act = async (gameId: string, guid: string, name: string, extra: object = {}, key?: DriverKey) =>
        ok(await d.command(name, { game_id: gameId, guid, ...extra }, key));
      /** Plays the actions in order; `A2x7` style repeats are spelled out by the caller. */
      const play = async (gameId: string, guid: string, names: readonly string[]) => {
        let last: any;
        for (const name of names) last = await act(gameId, guid, name);
        return last;
      };
      const card = async (cardId: string, gameId?: string) => ok(await d.card(cardId, gameId));
      const close = async (cardId: string) => ok(await d.close({ card_id: cardId }));
      /** A closed card as read back; the toolkit has dropped it (404), so there it is undefined. */
      const closedCard = async (cardId: string) => {
        if (!toolkit) return card(cardId);
        expectError(await d.card(cardId), 404);
        return undefined;
      };
      return { d, service, clock, ok, open, reset, act, play, card, close, closedCard };
    }

    const times = (n: number, name: string) => Array<string>(n).fill(name);

    function expectError(res: DriverResponse, status: number, code?: string) {
      expect(res.status, `expected ${status} ${code ?? ''}, got ${res.status} ${JSON.stringify(res.body)}`).toBe(status);
      if (code !== undefined) {
        expect(res.body.error).toBe(code);
        expect(typeof res.body.message).toBe('string');
        // The toolkit's server words invalid action data as `{e}}`, a template of its own it forgot to fill in.
        expect(res.body.message.length).toBeGreaterThan(toolkit ? 3 : 10);
      }
    }

    // ---------------------------------------------------------------- §2 endpoints

    describe('§2 games', () => {
      it('lists every game as a descriptor, sorted by title (the toolkit: as it was given them)', async () => {
        const { d, ok } = await start();
        const games = ok(await d.games());
        const titles = games.map((g: any) => g.title);
        // The toolkit lists its games in the order it found them, without baselines.
        if (toolkit) expect(titles).toEqual(fixtureGames().map((game) => game.info.title));
        else expect(titles).toEqual([...titles].sort());
        expect(games).toHaveLength(fixtureGames().length);
        const three = games.find((g: any) => g.game_id === THREE);
        expect(three).toMatchObject({ title: threeLevels.info.title, default_fps: 5, tags: ['keyboard'], class_name: 'Thre' });
        expect(three.baseline_actions).toEqual(cardField([2, 4, 4]));
        // The toolkit writes a date as pydantic does, without a fraction of 0 (docs/protocol.md §7a).
        const isoDate = new Date(three.date_downloaded).toISOString();
        expect(three.date_downloaded).toBe(toolkit ? isoDate.replace('.000Z', 'Z') : isoDate);
      });

      it('answers one descriptor by full id and by bare slug (the current version)', async () => {
        const { d, ok } = await start();
        expect(ok(await d.game(threeLevelsOld.info.id)).baseline_actions).toEqual(cardField([2, 4]));
        const bySlug = ok(await d.game('thre'));
        expect(bySlug.game_id).toBe(THREE);
        expect(ok(await d.game(SIX))).toMatchObject({ game_id: SIX, tags: ['keyboard_click'], class_name: 'Six6' });
      });
    });

    describe('§2 scorecard open', () => {
      it('opens with {} and answers a uuid v4 card_id; agent is appended to the tags', async () => {
        const { open, card } = await start();
        const cardId = await open({});
        expect(cardId).toMatch(UUID_V4);
        const body = await card(cardId);
        expect(body.tags).toEqual(['agent']);
        expect('opaque' in body).toBe(false);
        expect('competition_mode' in body).toBe(false);
        expect(body.published_at ?? null).toBeNull();
        expect(body.open_at).toBe(cardField(new Date(T0).toISOString()));
      });

      it('keeps tags naming agent or human as given, echoes source_url and opaque verbatim', async () => {
        const { open, card } = await start();
        const opaque = { run: 7, notes: ['a', { b: null }], text: 'é✓' };
        const a = await card(await open({ tags: ['exp-1', 'human'], source_url: 'https://example.org/x', opaque }));
        expect(a.tags).toEqual(['exp-1', 'human']);
        expect(a.source_url).toBe('https://example.org/x');
        expect(a.opaque).toEqual(opaque);
        expect((await card(await open({ tags: ['exp-2'] }))).tags).toEqual(['exp-2', 'agent']);
        expect((await card(await open({ tags: ['agent', 'x'] }))).tags).toEqual(['agent', 'x']);
        expect((await card(await open({ opaque: 'just a string' }))).opaque).toBe('just a string');
      });

      it('names the user from the key without echoing it', async () => {
        const { open, card } = await start();
        const body = await card(await open({}));
        const digest = createHash('sha256').update(DEFAULT_TEST_KEY).digest('hex');
        expect(body.user_id).toBe(cardField(digest.slice(0, 16)));
        expect(body.user_name).toBe(cardField(`anonymous-${digest.slice(0, 8)}`));
        expect(JSON.stringify(body)).not.toContain(DEFAULT_TEST_KEY);
      });

      it('names the configured user of a configured key', async () => {
        const keys = new Map([[DEFAULT_TEST_KEY, { user_name: 'ada', user_id: 'user-ada' }]]);
        const { open, card } = await start({ keys });
        const body = await card(await open({}));
        expect([body.user_name, body.user_id]).toEqual([cardField('ada'), cardField('user-ada')]);
      });
    });

    describe('§2 scorecard read and close', () => {
      it('close answers the final scorecard with published_at; the closed card stays readable (the toolkit drops it)', async () => {
        const { open, close, closedCard, clock, reset, act } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        clock.advance(MINUTE);
        await act(THREE, guid, 'ACTION1');
        clock.advance(MINUTE);
        const closed = await close(cardId);
        expect(closed.card_id).toBe(cardId);
        expect(closed.published_at).toBe(cardField(new Date(T0 + 2 * MINUTE).toISOString()));
        if (!toolkit) expect(closed.last_update >= new Date(T0 + MINUTE).toISOString()).toBe(true);
        expect(closed.total_actions).toBe(1);
        const again = await closedCard(cardId);
        expect(again).toEqual(toolkit ? undefined : closed);
      });

      it('restricts the card to one game with totals recomputed for it (full id or slug)', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const three = await reset(THREE, { card_id: cardId });
        await play(THREE, three.guid, ['ACTION1', 'ACTION1', 'ACTION2']);
        const six = await reset(SIX, { card_id: cardId });
        await play(SIX, six.guid, ['ACTION5']);
        const full = await card(cardId);
        expect(full.total_environments).toBe(2);
        expect(full.total_actions).toBe(4);
        if (toolkit) {
          // The toolkit answers the whole card's totals and the game's plays, found by the id as asked
          // (a bare slug, or a game not played, finds none); actions_by_level: [levels completed, actions then].
          const totals = { played: 2, won: 0, total_actions: 4, levels_completed: full.total_levels_completed };
          expect(totals.levels_completed).toBe(2); // one level of each game
          const only = await card(cardId, THREE);
          expect(only).toMatchObject(totals);
          expect(only.cards[THREE]).toEqual({
            game_id: THREE,
            actions: [3],
            actions_by_level: [[[1, 2]]],
            guids: [three.guid],
            levels_completed: [1],
            resets: [0],
            states: ['NOT_FINISHED'],
            total_plays: 1,
            total_actions: 3,
          });
          expect(Object.keys(only.cards)).toEqual([THREE]);
          for (const id of ['thre', TIGHT, 'zzzz']) expect(await card(cardId, id)).toEqual({ ...totals, cards: {} });
          return;
        }
        for (const id of [THREE, 'thre']) {
          const only = await card(cardId, id);
          expect(only.environments.map((e: any) => e.id)).toEqual([THREE]);
          expect(only).toMatchObject({ total_environments: 1, total_actions: 3, total_levels: 3, total_levels_completed: 1 });
          expect(only.score).toBeCloseTo(only.environments[0].score, 10);
          expect(only.tags_scores.map((t: any) => t.id)).toEqual(['keyboard']);
        }
        const none = await card(cardId, TIGHT);
        expect(none).toMatchObject({ environments: [], total_environments: 0, score: 0 });
      });
    });

    describe('§2 JSON as the dialect writes it', () => {
      it('words JSON as its dialect: the toolkit as Flask does (keys sorted, scores as floats, no charset), on a wire', async () => {
        const { d, open, reset, act, ok } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const answers = [
          await act(THREE, guid, 'ACTION1').then(() => d.command('ACTION1', { game_id: THREE, guid })),
          await d.card(cardId),
          await d.card(cardId, THREE),
        ];
        for (const answer of answers) {
          ok(answer);
          if (answer.headers === undefined) continue; // the library has no wire
          expect(answer.headers['content-type']).toBe(toolkit ? 'application/json' : 'application/json; charset=utf-8');
          if (!toolkit) continue;
          expect(Object.keys(answer.body)).toEqual(Object.keys(answer.body).sort());
          expect(answer.text!.endsWith('}\n')).toBe(true);
        }
        const cardText = answers[1]!.text;
        if (toolkit && cardText !== undefined) {
          expect(Object.keys(answers[1]!.body.environments[0].runs[0])).toEqual(Object.keys(answers[1]!.body.environments[0].runs[0]).sort());
          // Level 1 done in 2 against a baseline of 2: 100 points, written 100.0; the levels not reached 0.0.
          expect(cardText).toContain('"level_scores":[100.0,0.0,0.0]');
        }
      });
    });

    describe('§2 card pages', () => {
      it('serve a closed card’s page, where the server has pages (the toolkit’s has none: 404)', async () => {
        const { d, open, reset, close } = await start();
        if (d.page === undefined) return; // the library has no wire, so no pages
        const cardId = await open();
        await reset(THREE, { card_id: cardId });
        await close(cardId);
        const page = await d.page(cardId);
        expect(page.status).toBe(toolkit ? 404 : 200);
        expect(page.headers!['content-type']).toBe('text/html; charset=utf-8');
        if (!toolkit) expect(page.text).toContain(cardId);
      });
    });

    // ---------------------------------------------------------------- §3 frame response

    describe('§3 frame response', () => {
      it('answers a RESET with the full id, a guid, one 64×64 grid and action_input {id: 0, data: {}}', async () => {
        const { open, reset } = await start();
        const frame = await reset('thre', { card_id: await open() });
        // The toolkit names the game as the RESET did.
        expect(frame.game_id).toBe(toolkit ? 'thre' : THREE);
        expect(frame.guid).toMatch(UUID_V4);
        expect(frame).toMatchObject({
          state: 'NOT_FINISHED',
          levels_completed: 0,
          win_levels: 3,
          full_reset: fullReset(true),
          available_actions: [1, 2, 3, 4, 5, 6, 7],
        });
        expect(frame.action_input).toEqual(echoed({ id: 0, data: {} }));
        const grids = gridsOf(frame);
        expect(grids).toHaveLength(1);
        expect(grids[0]).toHaveLength(GRID_CELLS);
        expect(grids[0]!.every((v) => v >= 0 && v <= 15)).toBe(true);
        if (!(frame.frame[0] instanceof Uint8Array)) {
          expect(frame.frame[0]).toHaveLength(64);
          expect(frame.frame[0][0]).toHaveLength(64);
        }
      });

      it('echoes data {game_id} (full id) and reasoning as sent, any JSON, strings included', async () => {
        const { open, reset, act } = await start();
        const { guid } = await reset(THREE, { card_id: await open() });
        // The toolkit finds a session only by its game's full id.
        expect((await act(toolkit ? THREE : 'thre', guid, 'ACTION2')).action_input).toEqual(echoed({ id: 2, data: { game_id: THREE } }));
        const reasoning = { thought: 'go left', score: [1, 2.5, null], nested: { ok: true } };
        expect((await act(THREE, guid, 'ACTION2', { reasoning })).action_input).toEqual({ id: 2, data: { game_id: THREE }, reasoning });
        const text = JSON.stringify({ thought: 'as a string' });
        expect((await act(THREE, guid, 'ACTION4', { reasoning: text })).action_input.reasoning).toBe(text);
        expect((await act(THREE, guid, 'ACTION2', { reasoning: null })).action_input).toEqual({ id: 2, data: { game_id: THREE }, reasoning: null });
      });

      it('echoes data {game_id, x, y} for ACTION6', async () => {
        const { open, reset, act } = await start();
        const { guid } = await reset(CLICK, { card_id: await open() });
        const frame = await act(CLICK, guid, 'ACTION6', { x: 5, y: 9, reasoning: 'click' });
        expect(frame.action_input).toEqual({ id: 6, data: { game_id: CLICK, x: 5, y: 9 }, reasoning: 'click' });
        expect(frame.available_actions).toEqual([6]);
        expect(firstGridOf(frame)[9 * GRID_SIZE + 5]).toBe(15);
      });

      it('answers a level transition with the old level’s last look then the new level, and animations with several grids', async () => {
        const { open, reset, act } = await start();
        const { guid } = await reset(THREE, { card_id: await open() });
        const before = await act(THREE, guid, 'ACTION1');
        const transition = await act(THREE, guid, 'ACTION1');
        const grids = gridsOf(transition);
        expect(grids.length).toBeGreaterThanOrEqual(2);
        expect(grids[0]![PROGRESS_CELL]).toBe(2);
        expect(grids[0]![LEVEL_CELL]).toBe(0);
        expect(grids.at(-1)![LEVEL_CELL]).toBe(1);
        expect(sameGrid(grids[0]!, firstGridOf(before))).toBe(false);
        expect(transition.levels_completed).toBe(1);
        const animation = await act(THREE, guid, 'ACTION4');
        expect(gridsOf(animation)).toHaveLength(ANIMATION_FRAMES);
      });

      it('hands out grids the caller may keep and change', async () => {
        const { open, reset, act } = await start();
        const first = await reset(THREE, { card_id: await open() });
        const grid = firstGridOf(first);
        const copy = Uint8Array.from(grid);
        grid.fill(9);
        const next = await act(THREE, first.guid, 'ACTION2');
        expect(firstGridOf(next)[0]).toBe(copy[0]);
        expect(firstGridOf(next)[100]).toBe(copy[100]);
      });
    });

    // ---------------------------------------------------------------- §4 sessions and RESET

    describe('§4 sessions and RESET', () => {
      it('rule 1: RESET without guid starts a session and a run, not counted', async () => {
        const { open, reset, card } = await start();
        const cardId = await open();
        const frame = await reset(THREE, { card_id: cardId });
        expect(frame).toMatchObject({ full_reset: fullReset(true), levels_completed: 0, state: 'NOT_FINISHED' });
        const body = await card(cardId);
        expect(body.total_actions).toBe(0);
        expect(body.environments[0].runs).toHaveLength(1);
        expect(body.environments[0].runs[0]).toMatchObject({ guid: frame.guid, actions: 0, resets: 0, state: 'NOT_FINISHED' });
        const second = await reset(THREE, { card_id: cardId });
        expect(second.guid).not.toBe(frame.guid);
      });

      it('rule 2: a RESET mid-level is a level reset: pristine level, levels kept, 1 action and 1 reset', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const transition = await play(THREE, guid, ['ACTION1', 'ACTION1']);
        const levelStart = gridsOf(transition).at(-1)!;
        await play(THREE, guid, ['ACTION1', 'ACTION2']);
        const levelReset = await reset(THREE, { guid });
        expect(levelReset).toMatchObject({ full_reset: false, levels_completed: 1, state: 'NOT_FINISHED', guid });
        // The toolkit plays a RESET of a session as a step, which echoes the game as any action does.
        expect(levelReset.action_input).toEqual(echoed({ id: 0, data: toolkit ? { game_id: THREE } : {} }));
        expect(sameGrid(firstGridOf(levelReset), levelStart)).toBe(true);
        const run = (await card(cardId)).environments[0].runs[0];
        expect(run).toMatchObject({ actions: 5, resets: 1, levels_completed: 1 });
        // The level still needs its full goal after the reset.
        const after = await play(THREE, guid, times(4, 'ACTION1'));
        expect(after.levels_completed).toBe(2);
      });

      it('rule 2: two RESETs in a row give a fresh game, as a full reset and a new run', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const first = await reset(THREE, { card_id: cardId });
        await play(THREE, first.guid, ['ACTION1', 'ACTION1', 'ACTION1']);
        const levelReset = await reset(THREE, { guid: first.guid });
        expect(levelReset.full_reset).toBe(false);
        const full = await reset(THREE, { guid: first.guid });
        expect(full).toMatchObject({ full_reset: fullReset(true), levels_completed: 0, state: 'NOT_FINISHED', guid: first.guid });
        expect(sameGrid(firstGridOf(full), firstGridOf(first))).toBe(true);
        const env = (await card(cardId)).environments[0];
        expect(env.runs).toHaveLength(2);
        expect(env.runs.map((r: any) => r.guid)).toEqual([first.guid, first.guid]);
        expect(env.runs[1]).toMatchObject({ actions: 0, resets: 0 });
        expect(env.runs[0]).toMatchObject({ actions: 4, resets: 1, levels_completed: 1 });
      });

      it('rule 2: a RESET right after a level was completed is a full reset', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION1', 'ACTION1']);
        const again = await reset(THREE, { guid });
        expect(again).toMatchObject({ full_reset: fullReset(true), levels_completed: 0 });
        expect((await card(cardId)).environments[0].runs).toHaveLength(2);
      });

      it('rule 2: a RESET after WIN is a full reset with the same guid and a new run, not counted', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const won = await play(THREE, guid, ['ACTION5', 'ACTION5', 'ACTION2', 'ACTION5']);
        expect(won).toMatchObject({ state: 'WIN', levels_completed: 3 });
        const again = await reset(THREE, { guid });
        expect(again).toMatchObject({ full_reset: fullReset(true), levels_completed: 0, state: 'NOT_FINISHED', guid });
        const env = (await card(cardId)).environments[0];
        expect(env.runs.map((r: any) => [r.state, r.actions, r.completed])).toEqual([
          ['WIN', 4, true],
          ['NOT_FINISHED', 0, false],
        ]);
      });

      it('rule 2: after GAME_OVER a RESET is a level reset; the losing action counts on the level', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION1', 'ACTION1', 'ACTION1']);
        const lost = await play(THREE, guid, ['ACTION3']);
        expect(lost).toMatchObject({ state: 'GAME_OVER', levels_completed: 1 });
        const again = await reset(THREE, { guid });
        expect(again).toMatchObject({ full_reset: false, levels_completed: 1, state: 'NOT_FINISHED' });
        expect(firstGridOf(again)[LEVEL_CELL]).toBe(1);
        const run = (await card(cardId)).environments[0].runs[0];
        expect(run).toMatchObject({ actions: 5, resets: 1, state: 'GAME_OVER', level_actions: [2, 3, 0] });
      });

      it('rule 2: the session’s game must match game_id (bare slug of the same game is fine, not to the toolkit)', async () => {
        const { d, open, reset } = await start();
        const { guid } = await reset(THREE, { card_id: await open() });
        expectError(await d.command('RESET', { game_id: SIX, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('ACTION1', { game_id: SIX, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('ACTION1', { game_id: threeLevelsOld.info.id, guid }), 400, 'SERVER_ERROR');
        if (toolkit) expectError(await d.command('ACTION1', { game_id: 'thre', guid }), 400, 'SERVER_ERROR');
        else expect((await d.command('ACTION1', { game_id: 'thre', guid })).status).toBe(200);
      });

      it('rule 3: every action while NOT_FINISHED counts, whatever its effect', async () => {
        const { open, reset, act, card } = await start();
        const cardId = await open();
        const { guid } = await reset(CLICK, { card_id: cardId });
        await act(CLICK, guid, 'ACTION6', { x: 0, y: 0 }); // a click on nothing
        await act(CLICK, guid, 'ACTION1'); // not in available_actions [6]
        await act(CLICK, guid, 'ACTION7'); // undo
        await act(CLICK, guid, 'ACTION2');
        const body = await card(cardId);
        expect(body.total_actions).toBe(4);
        expect(body.environments[0].runs[0].actions).toBe(4);
      });

      it('rule 4: no non-RESET action after WIN or GAME_OVER (400 GAME_NOT_STARTED_ERROR), not counted', async () => {
        const { d, open, reset, play, card } = await start();
        const cardId = await open();
        const won = await reset(CLICK, { card_id: cardId });
        const win = await d.command('ACTION6', { game_id: CLICK, guid: won.guid, ...GOAL_CELL });
        expect(win.body).toMatchObject({ state: 'WIN', levels_completed: 1 });
        for (const name of ['ACTION1', 'ACTION7']) expectError(await d.command(name, { game_id: CLICK, guid: won.guid }), 400, 'GAME_NOT_STARTED_ERROR');
        expectError(await d.command('ACTION6', { game_id: CLICK, guid: won.guid, x: 1, y: 1 }), 400, 'GAME_NOT_STARTED_ERROR');
        const lost = await reset(THREE, { card_id: cardId });
        await play(THREE, lost.guid, ['ACTION3']);
        expectError(await d.command('ACTION1', { game_id: THREE, guid: lost.guid }), 400, 'GAME_NOT_STARTED_ERROR');
        const body = await card(cardId);
        expect(body.total_actions).toBe(2);
      });

      it('rule 5: exhausting a level’s step budget is GAME_OVER and keeps levels_completed', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(TIGHT, { card_id: cardId });
        await play(TIGHT, guid, ['ACTION1', 'ACTION1', 'ACTION1']);
        const last = await play(TIGHT, guid, ['ACTION2', 'ACTION2', 'ACTION2']);
        expect(last.state).toBe('NOT_FINISHED');
        const over = await play(TIGHT, guid, ['ACTION2']);
        expect(over).toMatchObject({ state: 'GAME_OVER', levels_completed: 1 });
        expect((await card(cardId)).environments[0].runs[0]).toMatchObject({ state: 'GAME_OVER', levels_completed: 1, actions: 7 });
      });

      it('rule 6: ACTION7 undoes and still counts', async () => {
        const { open, reset, play, act, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const one = await act(THREE, guid, 'ACTION1');
        const undone = await act(THREE, guid, 'ACTION7');
        expect(firstGridOf(undone)[PROGRESS_CELL]).toBe(0);
        expect(firstGridOf(one)[PROGRESS_CELL]).toBe(1);
        const done = await play(THREE, guid, ['ACTION1', 'ACTION1']);
        expect(done.levels_completed).toBe(1);
        expect((await card(cardId)).environments[0].runs[0].level_actions[0]).toBe(4);
      });

      it('rule 7: the same actions from the same reset give the same grids', async () => {
        const { open, reset, act } = await start();
        const cardId = await open();
        const script: [string, object][] = [
          ['ACTION1', {}],
          ['ACTION6', { x: 3, y: 4 }],
          ['ACTION4', {}],
          ['ACTION1', {}],
          ['ACTION7', {}],
          ['ACTION1', {}],
        ];
        const trace = async () => {
          const first = await reset(THREE, { card_id: cardId });
          const grids = [...gridsOf(first)];
          for (const [name, extra] of script) grids.push(...gridsOf(await act(THREE, first.guid, name, extra)));
          return grids;
        };
        const a = await trace();
        const b = await trace();
        expect(a.length).toBe(b.length);
        for (const [i, grid] of a.entries()) expect(sameGrid(grid, b[i]!), `grid ${i}`).toBe(true);
      });

      it('run state: GAME_OVER is sticky until the run wins; completed means WIN only', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION5', 'ACTION3']);
        await reset(THREE, { guid });
        await play(THREE, guid, ['ACTION2']);
        let run = (await card(cardId)).environments[0].runs[0];
        expect(run).toMatchObject({ state: 'GAME_OVER', completed: false });
        await play(THREE, guid, ['ACTION5', 'ACTION5']);
        run = (await card(cardId)).environments[0].runs[0];
        expect(run).toMatchObject({ state: 'WIN', completed: true, levels_completed: 3 });
      });
    });

    // ---------------------------------------------------------------- §5 scoring, through the service

    describe('§5 scorecard and scoring', () => {
      it('check: baselines [2,4,4], level 1 in 2, level 2 in 5, level 3 not done → 38.0 (cap 50)', async () => {
        const { open, reset, play, close } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION1', 'ACTION1', 'ACTION2', ...times(4, 'ACTION1'), 'ACTION2']);
        const body = await close(cardId);
        const run = body.environments[0].runs[0];
        expect(run.level_scores[0]).toBeCloseTo(100, 10);
        expect(run.level_scores[1]).toBeCloseTo(64, 10);
        expect(run.level_scores[2]).toBe(0);
        expect(run.level_actions).toEqual([2, 5, 1]);
        expect(run.level_baseline_actions).toEqual([2, 4, 4]);
        // The toolkit's run entries leave out id and the counts.
        expect([run.id, run.number_of_levels, run.number_of_environments]).toEqual([cardField(THREE), cardField(3), cardField(1)]);
        expect(run).toMatchObject({
          guid,
          levels_completed: 2,
          actions: 8,
          resets: 0,
          state: 'NOT_FINISHED',
          completed: false,
        });
        expect(run.score).toBeCloseTo(38, 10);
        expect(body.score).toBeCloseTo(38, 10);
        expect(body.environments[0].score).toBeCloseTo(38, 10);
      });

      it('check: six levels of baseline 10 each done in 8 → 4.76, 14.29, 28.57, 47.62, 71.43, 100', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(SIX, { card_id: cardId });
        const levelIn8 = [...times(7, 'ACTION2'), 'ACTION5'];
        for (let k = 1; k <= 6; k++) {
          if (k > 1) await reset(SIX, { guid }); // right after a completion: a full reset, a new run
          for (let level = 0; level < k; level++) await play(SIX, guid, levelIn8);
        }
        const env = (await card(cardId)).environments[0];
        expect(env.runs.map((r: any) => Number(r.score.toFixed(2)))).toEqual([4.76, 14.29, 28.57, 47.62, 71.43, 100]);
        expect(env.runs[0].level_scores).toEqual([115, 0, 0, 0, 0, 0]);
        expect(env.runs[5]).toMatchObject({ state: 'WIN', completed: true, level_actions: [8, 8, 8, 8, 8, 8] });
        expect(env).toMatchObject({ score: 100, levels_completed: 6, completed: true, level_count: 6, actions: 8 * 21, resets: 0 });
      });

      it('level actions count level resets and failed attempts; later actions go to the first unfinished level', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(TIGHT, { card_id: cardId });
        await play(TIGHT, guid, ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2']); // lost: 4 steps of budget 4
        await reset(TIGHT, { guid }); // level reset after GAME_OVER: 1
        await play(TIGHT, guid, ['ACTION1', 'ACTION2']);
        await reset(TIGHT, { guid }); // level reset mid-level: 1
        await play(TIGHT, guid, ['ACTION1', 'ACTION1', 'ACTION1']); // level 1 done
        await play(TIGHT, guid, ['ACTION2', 'ACTION1']);
        const run = (await card(cardId)).environments[0].runs[0];
        expect(run.level_actions).toEqual([4 + 1 + 2 + 1 + 3, 2]);
        expect(run).toMatchObject({ actions: 13, resets: 2, levels_completed: 1, state: 'GAME_OVER' });
        expect(run.level_scores[0]).toBeCloseTo(100 * (3 / 11) ** 2, 10);
      });

      it('environment: best run score and levels, summed actions and resets, completed if any run won', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION5', 'ACTION2', 'ACTION2']);
        await reset(THREE, { guid }); // level reset
        await reset(THREE, { guid }); // full reset
        await play(THREE, guid, ['ACTION2', 'ACTION5', 'ACTION5', 'ACTION5']);
        const body = await card(cardId);
        const env = body.environments[0];
        const [first, second] = env.runs;
        expect(first).toMatchObject({ actions: 4, resets: 1, levels_completed: 1 });
        expect(second).toMatchObject({ actions: 4, resets: 0, levels_completed: 3, state: 'WIN' });
        expect(env).toMatchObject({ id: THREE, actions: 8, resets: 1, levels_completed: 3, completed: true, level_count: 3 });
        expect(env.score).toBe(Math.max(first.score, second.score));
        expect(env.score).toBeCloseTo((100 * (2 / 2) ** 2 * 1 + 100 * 2 + 100 * 3) / 6, 10);
      });

      it('card: score is the mean over environments; totals sum them', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const three = await reset(THREE, { card_id: cardId });
        await play(THREE, three.guid, ['ACTION1', 'ACTION1', 'ACTION2', ...times(4, 'ACTION1')]);
        const click = await reset(CLICK, { card_id: cardId });
        await play(CLICK, click.guid, ['ACTION2']);
        const six = await reset(SIX, { card_id: cardId });
        await play(SIX, six.guid, ['ACTION2']);
        const body = await card(cardId);
        expect(body.environments.map((e: any) => e.id)).toEqual([THREE, CLICK, SIX]);
        expect(body.score).toBeCloseTo((38 + 0 + 0) / 3, 10);
        expect(body).toMatchObject({
          total_environments: 3,
          total_environments_completed: 0,
          total_levels_completed: 2,
          total_levels: 3 + 1 + 6,
          total_actions: 7 + 1 + 1,
        });
      });

      it('card: a won environment counts as completed', async () => {
        const { d, open, reset, card } = await start();
        const cardId = await open();
        const { guid } = await reset(CLICK, { card_id: cardId });
        expect((await d.command('ACTION6', { game_id: CLICK, guid, ...GOAL_CELL })).body.state).toBe('WIN');
        const body = await card(cardId);
        expect(body).toMatchObject({ total_environments_completed: 1, total_levels_completed: 1, total_actions: 1 });
        // Level score 115 (baseline 3, done in 1), capped to 100 for the run.
        expect(body.environments[0].runs[0].level_scores).toEqual([115]);
        expect(body.score).toBe(100);
      });

      it('check: tags_scores pools game A [10,20] (level 1 in 20) and game B [15,30,45] (level 1 in 25) → 6.78', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const a = await reset(tagGameA.info.id, { card_id: cardId });
        await play(tagGameA.info.id, a.guid, [...times(19, 'ACTION2'), 'ACTION5']);
        const b = await reset(tagGameB.info.id, { card_id: cardId });
        await play(tagGameB.info.id, b.guid, [...times(24, 'ACTION2'), 'ACTION5']);
        const body = await card(cardId);
        expect(body.environments.map((e: any) => Number(e.runs[0].level_scores[0].toFixed(6)))).toEqual([25, 36]);
        expect(body.tags_scores).toHaveLength(1);
        const keyboard = body.tags_scores[0];
        expect(keyboard).toMatchObject({ id: 'keyboard', levels_completed: 2, actions: 45, number_of_levels: 5, number_of_environments: 2 });
        expect(keyboard.score).toBeCloseTo(61 / 9, 10);
        expect(keyboard.score.toFixed(2)).toBe('6.78');
      });

      it('tags_scores: each game pools its best run (the first with the most levels), one entry per game tag', async () => {
        const { open, reset, play, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION2', 'ACTION5']); // run 1: level 1 in 2 → 100
        await reset(THREE, { guid });
        await play(THREE, guid, ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION5']); // run 2: level 1 in 4 → 25
        await reset(THREE, { guid });
        await play(THREE, guid, ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION5', 'ACTION5']); // run 3: two levels
        const c = await reset(CLICK, { card_id: cardId });
        await play(CLICK, c.guid, ['ACTION2']);
        const body = await card(cardId);
        const runs = body.environments[0].runs;
        // Sorted by tag; the toolkit's in the order first met (docs/protocol.md §7a).
        expect(body.tags_scores.map((t: any) => t.id)).toEqual(toolkit ? ['keyboard', 'click'] : ['click', 'keyboard']);
        const keyboard = body.tags_scores.find((t: any) => t.id === 'keyboard');
        expect(keyboard).toMatchObject({ levels_completed: 2, actions: runs[2].actions, number_of_levels: 3, number_of_environments: 1 });
        expect(keyboard.score).toBeCloseTo(runs[2].score, 10);
        expect(body.tags_scores.find((t: any) => t.id === 'click')).toMatchObject({
          id: 'click',
          score: 0,
          levels_completed: 0,
          actions: 1,
          number_of_levels: 1,
          number_of_environments: 1,
        });
      });
    });

    // ---------------------------------------------------------------- §5 lifecycle

    describe('§5 lifecycle', () => {
      it('auto-closes at the idle limit: sessions end, the card is published at the deadline, close answers 404', async () => {
        const { d, open, reset, act, closedCard, clock } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        clock.advance(14 * MINUTE);
        await act(THREE, guid, 'ACTION2'); // counted: the wait starts again
        clock.advance(15 * MINUTE - 1);
        await act(THREE, guid, 'ACTION2');
        clock.advance(15 * MINUTE);
        expectError(await d.command('ACTION2', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, card_id: cardId }), 400, 'SERVER_ERROR');
        const body = await closedCard(cardId);
        if (body !== undefined) {
          expect(body.published_at).toBe(new Date(T0 + 29 * MINUTE - 1 + 15 * MINUTE).toISOString());
          expect(body.total_actions).toBe(2);
        }
        expectError(await d.close({ card_id: cardId }), 404);
      });

      it('full resets do not hold a card open: only counted actions do', async () => {
        const { d, open, reset, clock, closedCard } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        clock.advance(10 * MINUTE);
        await reset(THREE, { guid }); // a full reset, not counted
        clock.advance(5 * MINUTE);
        expectError(await d.command('ACTION1', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expect((await closedCard(cardId))?.published_at).toBe(cardField(new Date(T0 + 15 * MINUTE).toISOString()));
      });

      it('closes a card 24 hours after it opened, however busy', async () => {
        const { d, open, reset, act, clock, closedCard } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        for (let elapsed = 0; elapsed < 24 * 60 - 10; elapsed += 10) {
          clock.advance(10 * MINUTE);
          await act(THREE, guid, 'ACTION2');
        }
        clock.advance(10 * MINUTE);
        expectError(await d.command('ACTION2', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expect((await closedCard(cardId))?.published_at).toBe(cardField(new Date(T0 + 24 * 60 * MINUTE).toISOString()));
      });

      it('sweep() closes expired cards without any request and says how many', async () => {
        const { service, open, reset, act, clock, card, closedCard } = await start({ idleCloseMs: 5 * MINUTE });
        const idle = await open();
        const busy = await open();
        const { guid } = await reset(THREE, { card_id: busy });
        clock.advance(4 * MINUTE);
        await act(THREE, guid, 'ACTION2');
        clock.advance(MINUTE);
        expect(service.sweep()).toBe(1);
        expect(service.sweep()).toBe(0);
        expect((await closedCard(idle))?.published_at).toBe(cardField(new Date(T0 + 5 * MINUTE).toISOString()));
        expect((await card(busy)).published_at ?? null).toBeNull();
      });

      it('closing ends the card’s sessions: later commands on them get 400', async () => {
        const { d, open, reset, close } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        await close(cardId);
        expectError(await d.command('ACTION1', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('ACTION6', { game_id: THREE, guid, x: 1, y: 2 }), 400, 'SERVER_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, guid }), 400, 'SERVER_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, card_id: cardId }), 400, 'SERVER_ERROR');
      });
    });

    // ---------------------------------------------------------------- §5 scoping and competition

    describe('§5 per-key scoping', () => {
      it('another key gets the not-found answer for a card and its sessions', async () => {
        const { d, open, reset, card } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        expectError(await d.card(cardId, undefined, OTHER_KEY), 404, 'SERVER_ERROR');
        expectError(await d.card(cardId, THREE, OTHER_KEY), 404, 'SERVER_ERROR');
        expectError(await d.close({ card_id: cardId }, OTHER_KEY), 404);
        expectError(await d.command('RESET', { game_id: THREE, card_id: cardId }, OTHER_KEY), 400, 'SERVER_ERROR');
        // The toolkit refuses a command on another key's session as a validation error.
        const otherSession = toolkit ? 'VALIDATION_ERROR' : 'SERVER_ERROR';
        expectError(await d.command('RESET', { game_id: THREE, guid }, OTHER_KEY), 400, otherSession);
        expectError(await d.command('ACTION1', { game_id: THREE, guid }, OTHER_KEY), 400, otherSession);
        const body = await card(cardId);
        expect(body.total_actions).toBe(0);
        expect(body.published_at ?? null).toBeNull();
      });

      it('configured keys: each key its own user and its own cards', async () => {
        const keys = new Map([
          [DEFAULT_TEST_KEY, { user_name: 'ada', user_id: 'u1' }],
          [OTHER_KEY, { user_name: 'bob', user_id: 'u2' }],
        ]);
        const { d, ok, open } = await start({ keys });
        const adaCard = await open({});
        const bobCard = ok(await d.open({}, OTHER_KEY)).card_id;
        expect(ok(await d.card(bobCard, undefined, OTHER_KEY)).user_name).toBe(cardField('bob'));
        expectError(await d.card(adaCard, undefined, OTHER_KEY), 404, 'SERVER_ERROR');
        expectError(await d.card(bobCard), 404, 'SERVER_ERROR');
      });
    });

    describe('§5 competition mode', () => {
      it('marks the card, forbids reading it (403) and a second open by the key (409) until it closes (the toolkit: no limit)', async () => {
        const { d, ok, open, close, closedCard } = await start();
        const cardId = await open({ competition_mode: true });
        expectError(await d.card(cardId), 403, 'SERVER_ERROR');
        expectError(await d.card(cardId, THREE), 403, 'SERVER_ERROR');
        if (toolkit) {
          ok(await d.open({ competition_mode: true }));
          ok(await d.open({}));
        } else {
          expectError(await d.open({ competition_mode: true }), 409, 'SERVER_ERROR');
          expectError(await d.open({}), 409, 'SERVER_ERROR');
        }
        expect(ok(await d.open({ competition_mode: true }, OTHER_KEY)).card_id).toMatch(UUID_V4);
        const closed = await close(cardId);
        expect(closed.competition_mode).toBe(true);
        expect(await closedCard(cardId)).toEqual(toolkit ? undefined : closed); // (our choice) hidden only while open
        expect((await open({ competition_mode: true })).length).toBeGreaterThan(0);
      });

      it('refuses a RESET after WIN (400 GAME_NOT_STARTED_ERROR, our choice: a competition run cannot restart); the toolkit starts a new run', async () => {
        const { d, open, reset, close } = await start();
        const cardId = await open({ competition_mode: true });
        const { guid } = await reset(CLICK, { card_id: cardId });
        expect((await d.command('ACTION6', { game_id: CLICK, guid, ...GOAL_CELL })).body.state).toBe('WIN');
        if (toolkit) expect(await reset(CLICK, { guid })).toMatchObject({ state: 'NOT_FINISHED', levels_completed: 0 });
        else expectError(await d.command('RESET', { game_id: CLICK, guid }), 400, 'GAME_NOT_STARTED_ERROR');
        expectError(await d.command('RESET', { game_id: CLICK, card_id: cardId }), 400, 'SERVER_ERROR');
        const body = await close(cardId);
        expect(body.environments.find((e: any) => e.id === CLICK)).toMatchObject({ actions: 1, completed: true, score: 100 });
        expect(body.environments.find((e: any) => e.id === CLICK).runs).toHaveLength(toolkit ? 2 : 1);
      });

      it('auto-closes like any card: the lock on a second open lifts, unplayed games enter at 0, the card becomes readable', async () => {
        const { d, open, reset, clock, closedCard } = await start();
        const cardId = await open({ competition_mode: true });
        await reset(THREE, { card_id: cardId });
        clock.advance(15 * MINUTE);
        const next = await open({ competition_mode: true });
        expect(next).not.toBe(cardId);
        expectError(await d.close({ card_id: cardId }), 404);
        const body = await closedCard(cardId);
        if (body !== undefined) {
          expect(body).toMatchObject({ competition_mode: true, total_environments: fixtureGames().length, score: 0 });
          expect(body.published_at).toBe(new Date(T0 + 15 * MINUTE).toISOString());
        }
      });

      it('allows one session per game per card', async () => {
        const { d, open, reset } = await start();
        const cardId = await open({ competition_mode: true });
        await reset(THREE, { card_id: cardId });
        expectError(await d.command('RESET', { game_id: THREE, card_id: cardId }), 400, 'SERVER_ERROR');
        expectError(await d.command('RESET', { game_id: 'thre', card_id: cardId }), 400, 'SERVER_ERROR');
        await reset(SIX, { card_id: cardId });
      });

      // Each rule set of competitionRules.ts has its own test; a dialect's suite runs the one it plays by.
      if (!toolkit)
        it('makes every RESET with a guid a level reset; at a level’s start it changes nothing and counts 1 action, 1 reset', async () => {
          const { open, reset, play, close } = await start();
          const cardId = await open({ competition_mode: true });
          const first = await reset(THREE, { card_id: cardId });
          const atStart = await reset(THREE, { guid: first.guid });
          expect(atStart).toMatchObject({ full_reset: false, levels_completed: 0, state: 'NOT_FINISHED' });
          expect(sameGrid(firstGridOf(atStart), firstGridOf(first))).toBe(true);
          const transition = await play(THREE, first.guid, ['ACTION1', 'ACTION1']);
          const afterCompletion = await reset(THREE, { guid: first.guid });
          expect(afterCompletion).toMatchObject({ full_reset: false, levels_completed: 1 });
          expect(sameGrid(firstGridOf(afterCompletion), gridsOf(transition).at(-1)!)).toBe(true);
          await play(THREE, first.guid, ['ACTION1', 'ACTION2']);
          const midLevel = await reset(THREE, { guid: first.guid });
          expect(midLevel).toMatchObject({ full_reset: false, levels_completed: 1 });
          expect(sameGrid(firstGridOf(midLevel), gridsOf(transition).at(-1)!)).toBe(true);
          const twice = await reset(THREE, { guid: first.guid });
          expect(twice).toMatchObject({ full_reset: false, levels_completed: 1 });
          const body = await close(cardId);
          const env = body.environments.find((e: any) => e.id === THREE);
          expect(env.runs).toHaveLength(1);
          expect(env.runs[0]).toMatchObject({ actions: 2 + 2 + 4, resets: 4, levels_completed: 1 });
          expect(env.runs[0].level_actions).toEqual([3, 5, 0]);
        });

      if (toolkit)
        it('repeats the session’s last answer for a RESET at a level’s start, counted as that answer’s action was (the toolkit)', async () => {
          const { open, reset, play, close } = await start();
          const cardId = await open({ competition_mode: true });
          const first = await reset(THREE, { card_id: cardId });
          const atStart = await reset(THREE, { guid: first.guid });
          expect(atStart).toEqual(first);
          const transition = await play(THREE, first.guid, ['ACTION1', 'ACTION1']);
          const afterCompletion = await reset(THREE, { guid: first.guid });
          expect(afterCompletion).toEqual(transition);
          await play(THREE, first.guid, ['ACTION1', 'ACTION2']);
          const levelReset = await reset(THREE, { guid: first.guid });
          expect(levelReset.action_input).toEqual({ id: 0, data: { game_id: THREE }, reasoning: null });
          expect(await reset(THREE, { guid: first.guid })).toEqual(levelReset);
          const body = await close(cardId);
          const env = body.environments.find((e: any) => e.id === THREE);
          expect(env.runs).toHaveLength(1);
          // Repeated: the first RESET's answer (an action and a reset), a completing action's (an action), a level reset's (both).
          expect(env.runs[0]).toMatchObject({ actions: 1 + 2 + 1 + 2 + 1 + 1, resets: 3, levels_completed: 1 });
          expect(env.runs[0].level_actions).toEqual([1 + 2, 1 + 2 + 1 + 1, 0]);
        });

      it('on close, every offered game not played enters the card with score 0', async () => {
        const { open, reset, play, close } = await start();
        const cardId = await open({ competition_mode: true });
        const { guid } = await reset(THREE, { card_id: cardId });
        await play(THREE, guid, ['ACTION1', 'ACTION1']);
        const body = await close(cardId);
        const all = fixtureGames();
        expect(body.total_environments).toBe(all.length);
        expect(body.environments.map((e: any) => e.id).sort()).toEqual(all.map((g) => g.info.id).sort());
        for (const env of body.environments.filter((e: any) => e.id !== THREE)) {
          expect(env).toMatchObject({ score: 0, actions: 0, levels_completed: 0, completed: false, resets: 0 });
          // The toolkit makes a session of each game not played: one unplayed run, with the game's baselines.
          const game = all.find((g) => g.info.id === env.id)!;
          const unplayed = { score: 0, actions: 0, levels_completed: 0, state: 'NOT_FINISHED', level_baseline_actions: game.info.baselineActions };
          if (toolkit) expect(env.runs).toEqual([expect.objectContaining(unplayed)]);
          else expect(env.runs).toEqual([]);
        }
        const three = body.environments.find((e: any) => e.id === THREE);
        expect(three.score).toBeCloseTo(100 / 6, 10);
        expect(body.score).toBeCloseTo(100 / 6 / all.length, 10);
        expect(body.total_levels).toBe(all.reduce((n, g) => n + g.info.baselineActions.length, 0));
      });
    });

    // ---------------------------------------------------------------- §6 errors

    describe('§6 errors', () => {
      it('401 UNAUTHORIZED for a missing key on every endpoint, and for an empty key (the toolkit accepts them)', async () => {
        const { d, ok } = await start();
        if (toolkit) {
          ok(await d.games(null));
          ok(await d.game(THREE, null));
          const cardId = ok(await d.open({}, null)).card_id;
          ok(await d.command('RESET', { game_id: THREE, card_id: cardId }, null));
          ok(await d.card(cardId, undefined, ''));
          ok(await d.close({ card_id: cardId }, ''));
          return;
        }
        expectError(await d.games(null), 401, 'UNAUTHORIZED');
        expectError(await d.game(THREE, null), 401, 'UNAUTHORIZED');
        expectError(await d.open({}, null), 401, 'UNAUTHORIZED');
        expectError(await d.close({ card_id: 'x' }, null), 401, 'UNAUTHORIZED');
        expectError(await d.card('x', undefined, null), 401, 'UNAUTHORIZED');
        expectError(await d.command('RESET', { game_id: THREE }, null), 401, 'UNAUTHORIZED');
        expectError(await d.command('ACTION1', { game_id: THREE, guid: 'g' }, null), 401, 'UNAUTHORIZED');
        expectError(await d.games(''), 401, 'UNAUTHORIZED');
      });

      it('401 UNAUTHORIZED for an unknown key when keys are configured', async () => {
        const { d, ok } = await start({ keys: new Map([[DEFAULT_TEST_KEY, { user_name: 'ada', user_id: 'u1' }]]) });
        ok(await d.games());
        expectError(await d.games('not-a-key'), 401, 'UNAUTHORIZED');
        expectError(await d.open({}, `${DEFAULT_TEST_KEY}x`), 401, 'UNAUTHORIZED');
      });

      it('400 VALIDATION_ERROR for a body that is not an object, or a field of the wrong type', async () => {
        const { d, ok, open, reset } = await start();
        const cardId = await open();
        await reset(THREE, { card_id: cardId }); // a live session: each refusal below is about the body alone
        for (const body of [null, [], 'text', 42, true]) {
          // The toolkit's one refusal without a code: `error` holds the sentence, and there is no message.
          if (toolkit) expect(await d.open(body)).toMatchObject({ status: 400, body: { error: 'request body must be a JSON object' } });
          else expectError(await d.open(body), 400, 'VALIDATION_ERROR');
          expectError(await d.close(body), 400, 'VALIDATION_ERROR');
          expectError(await d.command('RESET', body), 400, 'VALIDATION_ERROR');
          expectError(await d.command('ACTION1', body), 400, 'VALIDATION_ERROR');
        }
        expectError(await d.open({ tags: 'x' }), 400, 'VALIDATION_ERROR');
        expectError(await d.open({ tags: [1] }), 400, 'VALIDATION_ERROR');
        expectError(await d.open({ source_url: 5 }), 400, 'VALIDATION_ERROR');
        // The toolkit takes any competition_mode as asking for a competition card.
        if (toolkit) ok(await d.open({ competition_mode: 'yes' }));
        else expectError(await d.open({ competition_mode: 'yes' }), 400, 'VALIDATION_ERROR');
        expectError(await d.close({}), 400, 'VALIDATION_ERROR');
        expectError(await d.command('RESET', { game_id: 5, card_id: cardId }), 400, 'VALIDATION_ERROR');
        // The toolkit looks a card_id or guid of another type up as any other, and finds nothing.
        const [closeStatus, commandCode] = toolkit ? [404, 'SERVER_ERROR'] : [400, 'VALIDATION_ERROR'];
        expectError(await d.close({ card_id: 7 }), closeStatus, 'VALIDATION_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, card_id: 5 }), 400, commandCode);
        expectError(await d.command('ACTION1', { game_id: THREE, guid: 5 }), 400, commandCode);
      });

      it('400 VALIDATION_ERROR for a missing game_id, a missing guid on a non-RESET, a RESET with neither guid nor card_id', async () => {
        const { d, open, reset } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        expectError(await d.command('RESET', { card_id: cardId }), 400, 'VALIDATION_ERROR');
        expectError(await d.command('ACTION1', { guid }), 400, 'VALIDATION_ERROR');
        // The toolkit refuses a missing guid, and a RESET with neither guid nor card_id, as a server error.
        const noSession = toolkit ? 'SERVER_ERROR' : 'VALIDATION_ERROR';
        for (const name of ['ACTION1', 'ACTION2', 'ACTION3', 'ACTION4', 'ACTION5', 'ACTION7'])
          expectError(await d.command(name, { game_id: THREE }), 400, noSession);
        expectError(await d.command('ACTION6', { game_id: THREE, x: 1, y: 1 }), 400, noSession);
        expectError(await d.command('RESET', { game_id: THREE }), 400, noSession);
      });

      it('400 VALIDATION_ERROR for ACTION6 x or y missing, not an integer, or outside 0..63', async () => {
        const { d, open, reset, act, card } = await start();
        const cardId = await open();
        const { guid } = await reset(CLICK, { card_id: cardId });
        const bad = [{}, { x: 1 }, { y: 1 }, { x: 1.5, y: 1 }, { x: 1, y: '2' }, { x: -1, y: 0 }, { x: 0, y: 64 }, { x: 64, y: 0 }, { x: null, y: 0 }];
        for (const xy of bad) expectError(await d.command('ACTION6', { game_id: CLICK, guid, ...xy }), 400, 'VALIDATION_ERROR');
        await act(CLICK, guid, 'ACTION6', { x: 0, y: 63 });
        await act(CLICK, guid, 'ACTION6', { x: 63, y: 0 });
        expect((await card(cardId)).total_actions).toBe(2);
      });

      it('400 VALIDATION_ERROR for reasoning or opaque over 16 KiB serialized', async () => {
        const { d, ok, open, reset } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const big = 'x'.repeat(16 * 1024); // 16 KiB + 2 quotes serialized
        const fits = 'x'.repeat(16 * 1024 - 2);
        expectError(await d.command('ACTION1', { game_id: THREE, guid, reasoning: big }), 400, 'VALIDATION_ERROR');
        expectError(await d.command('ACTION6', { game_id: THREE, guid, x: 1, y: 1, reasoning: { text: big } }), 400, 'VALIDATION_ERROR');
        expectError(await d.command('RESET', { game_id: THREE, guid, reasoning: big }), 400, 'VALIDATION_ERROR');
        // The toolkit's refusal of a large opaque has no code: `error` holds the sentence, and there is no message.
        if (toolkit) expect(await d.open({ opaque: { text: big } })).toMatchObject({ status: 400, body: { error: 'opaque exceeds 8 KB limit' } });
        else expectError(await d.open({ opaque: { text: big } }), 400, 'VALIDATION_ERROR');
        expect(ok(await d.command('ACTION1', { game_id: THREE, guid, reasoning: fits })).action_input.reasoning).toBe(fits);
        ok(await d.open({ opaque: fits }));
      });

      it('400 SERVER_ERROR "game … not found" for unknown games, cards, guids, ended guids, other games’ guids', async () => {
        const { d, open, reset, close } = await start();
        const cardId = await open();
        const { guid } = await reset(THREE, { card_id: cardId });
        const notFound = async (name: string, body: object) => {
          const res = await d.command(name, body);
          expectError(res, 400, 'SERVER_ERROR');
          expect(res.body.message).toMatch(/not found/);
        };
        await notFound('RESET', { game_id: 'zzzz', card_id: cardId });
        await notFound('RESET', { game_id: 'zzzz-00000000', guid });
        await notFound('ACTION1', { game_id: 'zzzz', guid });
        await notFound('RESET', { game_id: THREE, card_id: '00000000-0000-4000-8000-000000000000' });
        await notFound('RESET', { game_id: THREE, guid: '00000000-0000-4000-8000-000000000000' });
        await notFound('ACTION1', { game_id: THREE, guid: '00000000-0000-4000-8000-000000000000' });
        await notFound('ACTION1', { game_id: SIX, guid });
        await close(cardId);
        await notFound('ACTION1', { game_id: THREE, guid });
        await notFound('RESET', { game_id: THREE, card_id: cardId });
      });

      it('404 for closing an unknown or already closed card, reading an unknown card, an unknown game', async () => {
        const { d, open, close } = await start();
        expectError(await d.close({ card_id: '00000000-0000-4000-8000-000000000000' }), 404, 'VALIDATION_ERROR');
        const cardId = await open();
        await close(cardId);
        expectError(await d.close({ card_id: cardId }), 404, 'VALIDATION_ERROR');
        expectError(await d.card('00000000-0000-4000-8000-000000000000'), 404, 'SERVER_ERROR');
        expectError(await d.card(cardId, 'zzzz'), 404, 'SERVER_ERROR');
        expectError(await d.game('zzzz'), 404, 'SERVER_ERROR');
        expectError(await d.game('thre-ffffffff'), 404, 'SERVER_ERROR');
      });

      it('404 for an unknown command', async () => {
        const { d, open, reset } = await start();
        const { guid } = await reset(THREE, { card_id: await open() });
        expect((await d.command('ACTION8', { game_id: THREE, guid })).status).toBe(404);
        expect((await d.command('ACTION0', { game_id: THREE, guid })).status).toBe(404);
      });

      it('keeps working after every error above', async () => {
        const { d, open, reset, play } = await start();
        await d.command('RESET', null);
        await d.close({});
        const { guid } = await reset(THREE, { card_id: await open() });
        expect((await play(THREE, guid, ['ACTION1', 'ACTION1'])).levels_completed).toBe(1);
      });
    });
  });
}
