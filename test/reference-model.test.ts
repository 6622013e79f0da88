/**
 * Property: random command sequences against the library agree with a small independent model of the
 * RESET and counting rules of docs/protocol.md §4, and the resulting card satisfies the invariants of §5
 * (level actions sum to run actions, scores in range, aggregates consistent).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isApiError, type ActionName } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { fixtureGames, threeLevels, tightBudget } from './fixtures/fixtureGames.ts';

const KEY = 'model-key';
type Command = 'RESET' | 'ACTION1' | 'ACTION2' | 'ACTION3' | 'ACTION4' | 'ACTION5' | 'ACTION6' | 'ACTION7';
const commands = fc.constantFrom<Command>('RESET', 'ACTION1', 'ACTION1', 'ACTION2', 'ACTION3', 'ACTION4', 'ACTION5', 'ACTION6', 'ACTION7');

interface ModelRun {
  actions: number;
  resets: number;
}

describe('command sequences against a model of docs/protocol.md §4', () => {
  it.each([threeLevels, tightBudget].map((g) => [g.info.id, g] as const))('%s: full vs level resets, counting, sticky end states', (gameId, game) => {
    fc.assert(
      fc.property(fc.array(commands, { minLength: 1, maxLength: 60 }), fc.boolean(), (script, competition) => {
        const service = new ReferenceService({ games: fixtureGames(), seed: 3, now: () => 0 });
        const { card_id } = service.openScorecard(KEY, { competition_mode: competition });
        const first = service.command(KEY, 'RESET', { game_id: gameId, card_id });
        const guid = first.guid;
        let run: ModelRun = { actions: 0, resets: 0 };
        const runs = [run];
        let state = 'NOT_FINISHED';
        let actionsOnLevel = 0;
        let levels = 0;
        for (const name of script) {
          const body = name === 'ACTION6' ? { game_id: gameId, guid, x: 63, y: 63 } : { game_id: gameId, guid };
          if (name === 'RESET') {
            if (competition && state === 'WIN') {
              expect(() => service.command(KEY, name, body)).toThrow(/won/);
              continue;
            }
            const frame = service.command(KEY, name, body);
            const full = !competition && (state === 'WIN' || actionsOnLevel === 0);
            expect(frame.full_reset).toBe(full);
            if (full) {
              run = { actions: 0, resets: 0 };
              runs.push(run);
              levels = 0;
            } else {
              run.actions++;
              run.resets++;
            }
            expect(frame.levels_completed).toBe(levels);
            state = 'NOT_FINISHED';
            actionsOnLevel = 0;
            continue;
          }
          if (state !== 'NOT_FINISHED') {
            try {
              service.command(KEY, name as ActionName, body);
              expect.unreachable('an action after WIN or GAME_OVER was accepted');
            } catch (error) {
              expect(isApiError(error) && error.code).toBe('GAME_NOT_STARTED_ERROR');
            }
            continue;
          }
          const frame = service.command(KEY, name as ActionName, body);
          run.actions++;
          actionsOnLevel++;
          expect(frame.levels_completed).toBeGreaterThanOrEqual(levels);
          if (frame.levels_completed > levels) actionsOnLevel = 0;
          levels = frame.levels_completed;
          state = frame.state;
          expect(frame.frame.length).toBeGreaterThanOrEqual(1);
        }
        const card = service.closeScorecard(KEY, { card_id });
        const env = card.environments.find((e) => e.id === gameId)!;
        expect(env.runs.map((r) => ({ actions: r.actions, resets: r.resets }))).toEqual(runs);
        for (const r of env.runs) {
          expect(r.level_actions.reduce((a, b) => a + b, 0)).toBe(r.actions);
          expect(r.levels_completed).toBeLessThanOrEqual(game.info.baselineActions.length);
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          expect(r.completed).toBe(r.state === 'WIN');
        }
        expect(env.actions).toBe(runs.reduce((n, r) => n + r.actions, 0));
        expect(env.resets).toBe(runs.reduce((n, r) => n + r.resets, 0));
        expect(env.score).toBe(Math.max(...env.runs.map((r) => r.score)));
        expect(card.total_actions).toBe(env.actions);
      }),
      { numRuns: 60 },
    );
  });
});
