// Denominators from the declared plan: a planned game or repeat without a result is named, not dropped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { missingFromPlan, missingSentence } from '../src/analysis/planDenominators.ts';

describe('denominators from the declared plan', () => {
  const plan = { games: ['flod-ce841f4d', 'crat-a280ea19'], episodesPerGame: 3 };

  it('names a game with no result and a repeat short, in the plan order', () => {
    const present = [
      ...[0, 1, 2].map(() => ({ agent: 'explorer', game_id: 'flod-ce841f4d' })),
      ...[0, 1].map(() => ({ agent: 'random', game_id: 'flod-ce841f4d' })),
      ...[0, 1, 2].map(() => ({ agent: 'random', game_id: 'crat-a280ea19' })),
    ];
    const missing = missingFromPlan(['random', 'explorer'], plan, present);
    expect(missing).toEqual([
      { agent: 'random', game: 'flod-ce841f4d', planned: 3, present: 2 },
      { agent: 'explorer', game: 'crat-a280ea19', planned: 3, present: 0 },
    ]);
    expect(missingSentence(missing)).toBe(
      'unknown, not dropped from the mean (the plan declared them; resume the run to fill them): random on flod-ce841f4d: 2 of 3 planned episodes have a result; explorer on crat-a280ea19: 0 of 3 planned episodes have a result',
    );
  });

  it('finds nothing missing exactly when every planned cell is full', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom(...plan.games)), { maxLength: 20 }), (cells) => {
        const present = cells.map(([agent, game_id]) => ({ agent, game_id }));
        const missing = missingFromPlan(['a', 'b'], plan, present);
        const full = ['a', 'b'].every((agent) => plan.games.every((game) => present.filter((p) => p.agent === agent && p.game_id === game).length >= 3));
        expect(missing.length === 0).toBe(full);
        for (const m of missing) expect(m.present).toBeLessThan(m.planned);
      }),
    );
  });
});
