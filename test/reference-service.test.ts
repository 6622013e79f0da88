/**
 * What the conformance suite cannot see through endpoints: seeded ids, construction options, the
 * default catalog, key handling details, and choices the protocol leaves to us.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, isApiError } from '../src/protocol/index.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { SeededIdGenerator } from '../src/reference/ids.ts';
import { KeyRing } from '../src/reference/keyring.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const THREE = threeLevels.info.id;

function thrown(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('seeded ids', () => {
  it('are uuid v4 shaped and distinct', () => {
    const ids = new SeededIdGenerator(42);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = ids.nextUuid();
      expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
    expect(new SeededIdGenerator().nextUuid()).toMatch(UUID_V4);
  });

  it('repeat for a seed and differ between seeds (also seeds past 2^32)', () => {
    const draw = (seed: number) => {
      const ids = new SeededIdGenerator(seed);
      return [ids.nextUuid(), ids.nextUuid()];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)[0]).not.toBe(draw(8)[0]);
    expect(draw(2 ** 40 + 1)[0]).not.toBe(draw(1)[0]);
  });

  it('make two services with the same seed hand out the same card ids and guids', () => {
    const run = () => {
      const service = new ReferenceService({ games: fixtureGames(), seed: 5, now: () => 0 });
      const { card_id } = service.openScorecard('k', {});
      const { guid } = service.command('k', 'RESET', { game_id: THREE, card_id });
      return [card_id, guid];
    };
    expect(run()).toEqual(run());
  });
});

describe('construction', () => {
  it('offers the catalog by default', () => {
    const service = new ReferenceService();
    const listed = service.listGames('k').map((g) => g.game_id);
    const catalog = gameCatalog().map((g) => g.info.id);
    expect(listed.sort()).toEqual(catalog.sort());
  });

  it('refuses lifetimes that are not positive', () => {
    expect(() => new ReferenceService({ idleCloseMs: 0 })).toThrow(RangeError);
    expect(() => new ReferenceService({ maxOpenMs: -1 })).toThrow(/maxOpenMs/);
    expect(() => new ReferenceService({ closedRetentionMs: 0 })).toThrow(/closedRetentionMs/);
  });

  it('refuses two games with one id', () => {
    expect(() => new ReferenceService({ games: [threeLevels, threeLevels] })).toThrow(/share the id/);
  });

  it('uses the configured idle limit', () => {
    let now = 0;
    const service = new ReferenceService({ games: fixtureGames(), seed: 1, now: () => now, idleCloseMs: 1000 });
    const { card_id } = service.openScorecard('k', {});
    now = 999;
    expect(service.sweep()).toBe(0);
    now = 1000;
    expect(service.sweep()).toBe(1);
    expect(service.getScorecard('k', card_id).published_at).toBe(new Date(1000).toISOString());
  });

  it('forgets closed cards after the retention, keeping them readable until then', () => {
    let now = 0;
    const service = new ReferenceService({ games: fixtureGames(), seed: 1, now: () => now, closedRetentionMs: 5000, idleCloseMs: 60_000 });
    const closedByHand = service.openScorecard('k', {}).card_id;
    const autoClosed = service.openScorecard('k', {}).card_id;
    const stillOpen = service.openScorecard('k', {}).card_id;
    service.closeScorecard('k', { card_id: closedByHand });
    now = 4999;
    expect(service.forgetClosedCards()).toBe(0);
    expect(service.getScorecard('k', closedByHand).published_at).not.toBeNull();
    now = 5000;
    expect(service.forgetClosedCards()).toBe(1);
    expect(thrown(() => service.getScorecard('k', closedByHand)).status).toBe(404);
    expect(service.cardCount).toBe(2);
    // An auto-closed card is retained from when its expiry is found, then forgotten like any other.
    now = 30_000;
    const { guid } = service.command('k', 'RESET', { game_id: threeLevels.info.id, card_id: stillOpen });
    service.command('k', 'ACTION2', { game_id: threeLevels.info.id, guid });
    now = 61_000;
    expect(service.sweep()).toBe(1);
    expect(service.getScorecard('k', autoClosed).published_at).toBe(new Date(60_000).toISOString());
    now = 66_000;
    expect(service.forgetClosedCards()).toBe(1);
    expect(service.cardCount).toBe(1);
    expect(service.getScorecard('k', stillOpen).published_at).toBeNull();
  });
});

describe('keys', () => {
  it('never echo the key, in answers or errors', () => {
    const secret = 'sk-very-secret-key-123';
    const keys = new Map([['other', { user_name: 'u', user_id: 'u' }]]);
    const error = thrown(() => new ReferenceService({ keys, games: fixtureGames() }).listGames(secret));
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(secret);
    const anonymous = new ReferenceService({ games: fixtureGames(), seed: 1 });
    const { card_id } = anonymous.openScorecard(secret, {});
    expect(JSON.stringify(anonymous.getScorecard(secret, card_id))).not.toContain(secret);
  });

  it('resolve configured keys to their users and scope by key, not by user', () => {
    const ring = new KeyRing(
      new Map([
        ['a', { user_name: 'ada', user_id: 'u1' }],
        ['b', { user_name: 'ada', user_id: 'u1' }],
      ]),
    );
    expect(ring.authenticate('a').identity).toEqual({ user_name: 'ada', user_id: 'u1' });
    expect(ring.authenticate('a').owner).not.toBe(ring.authenticate('b').owner);
    expect(() => ring.authenticate('c')).toThrow(ApiError);
    expect(() => ring.authenticate(undefined)).toThrow(ApiError);
  });

  it('treat a key of the wrong type from an in-process caller as missing', () => {
    const service = new ReferenceService({ games: fixtureGames() });
    expect(thrown(() => service.listGames(42 as unknown as string)).status).toBe(401);
  });
});

describe('choices the protocol leaves open', () => {
  it('a RESET with a guid ignores any card_id it also carries', () => {
    const service = new ReferenceService({ games: fixtureGames(), seed: 1, now: () => 0 });
    const { card_id } = service.openScorecard('k', {});
    const other = service.openScorecard('k', {}).card_id;
    const { guid } = service.command('k', 'RESET', { game_id: THREE, card_id });
    service.command('k', 'ACTION2', { game_id: THREE, guid });
    const again = service.command('k', 'RESET', { game_id: THREE, guid, card_id: other });
    expect(again.guid).toBe(guid);
    expect(service.getScorecard('k', card_id).total_actions).toBe(2);
    expect(service.getScorecard('k', other).total_environments).toBe(0);
  });

  it('errors say what is wrong and what to do', () => {
    const service = new ReferenceService({ games: fixtureGames(), seed: 1 });
    expect(thrown(() => service.command('k', 'RESET', { game_id: THREE })).message).toMatch(/card_id.*open a scorecard/);
    expect(thrown(() => service.command('k', 'RESET', { game_id: 'nope', card_id: 'x' })).message).toMatch(/GET \/api\/games/);
    expect(thrown(() => service.closeScorecard('k', { card_id: 'x' })).message).toMatch(/not found; open one/);
  });
});
