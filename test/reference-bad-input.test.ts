/**
 * Property: whatever a caller hands the library (any JSON value, any JS value, near-valid bodies with
 * one field wrong), every method either answers or throws an ApiError with a 4xx status, never
 * anything else, and the service keeps playing correctly afterwards (docs/protocol.md §6: never 5xx on bad input).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, isApiError, type ActionName } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { fixtureGames, threeLevels } from './fixtures/fixtureGames.ts';

const KEY = 'fuzz-key';
const THREE = threeLevels.info.id;

/** Calls and classifies: 'ok', or the 4xx status; anything else fails the property with its cause. */
function outcome(call: () => unknown): string {
  try {
    call();
    return 'ok';
  } catch (error) {
    if (!isApiError(error)) throw new Error(`not an ApiError: ${String(error)}`, { cause: error });
    if (error.status < 400 || error.status > 499) throw new Error(`status ${error.status} for bad input: ${error.message}`);
    if (typeof error.message !== 'string' || error.message.length === 0) throw new Error('an ApiError without a message');
    return String(error.status);
  }
}

function liveService() {
  let now = Date.UTC(2025, 0, 1);
  const service = new ReferenceService({ games: fixtureGames(), seed: 9, now: () => now });
  const { card_id } = service.openScorecard(KEY, {});
  const { guid } = service.command(KEY, 'RESET', { game_id: THREE, card_id });
  return { service, card_id, guid, tick: () => (now += 1000) };
}

/** After the fuzzing: a fresh card, a full level in 2 actions, the right score. */
function stillWorks(service: ReferenceService): void {
  const { card_id } = service.openScorecard(KEY, { tags: ['after-fuzz'] });
  const { guid } = service.command(KEY, 'RESET', { game_id: THREE, card_id });
  service.command(KEY, 'ACTION1', { game_id: THREE, guid });
  const frame = service.command(KEY, 'ACTION1', { game_id: THREE, guid });
  expect(frame.levels_completed).toBe(1);
  const card = service.closeScorecard(KEY, { card_id });
  expect(card.environments[0]?.runs[0]?.level_scores[0]).toBe(100);
}

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }),
);
const anyKey = fc.oneof(fc.constant(KEY), fc.constant(undefined), fc.constant(''), fc.string());
const anyAction = fc.oneof(fc.constantFrom(...ACTION_NAMES), fc.string(), anyValue);

describe('bad input to the library', () => {
  it('random bodies to every method: answered or a 4xx ApiError, and the service still works', () => {
    const { service, tick } = liveService();
    fc.assert(
      fc.property(anyKey, anyValue, anyAction, (key, body, action) => {
        tick();
        outcome(() => service.listGames(key));
        outcome(() => service.getGame(key, body as string));
        outcome(() => service.openScorecard(key, body));
        outcome(() => service.closeScorecard(key, body));
        outcome(() => service.getScorecard(key, body as string, body as string));
        outcome(() => service.command(key, action as ActionName, body));
      }),
      { numRuns: 150 },
    );
    stillWorks(service);
  });

  it('near-valid command bodies (real ids, one field anything): answered or a 4xx ApiError', () => {
    const { service, card_id, guid, tick } = liveService();
    const field = (valid: unknown) => fc.oneof(fc.constant(valid), anyValue);
    const body = fc.record(
      {
        game_id: fc.oneof(field(THREE), fc.constantFrom('thre', 'six6', 'zzzz')),
        card_id: field(card_id),
        guid: field(guid),
        x: fc.oneof(fc.integer({ min: -2, max: 66 }), anyValue),
        y: fc.oneof(fc.integer({ min: -2, max: 66 }), anyValue),
        reasoning: anyValue,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.constantFrom(...ACTION_NAMES), body, (action, request) => {
        tick();
        outcome(() => service.command(KEY, action, request));
        outcome(() => service.closeScorecard(KEY, { card_id: request.card_id }));
      }),
      { numRuns: 300 },
    );
    stillWorks(service);
  });
});
