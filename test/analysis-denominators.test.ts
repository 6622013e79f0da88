// Denominators from the declared plan: a planned game or repeat without a result is named, not dropped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { episodeName, episodesWithoutResult, type PlannedEpisode, withoutResultSentence } from '../src/analysis/planDenominators.ts';

const GAMES = ['flod-ce841f4d', 'crat-a280ea19'];
/** 2 agents × 2 games × (2 episodes × 3 repeats), laid out as runner/plan.ts lays a plan out. */
const PLAN: PlannedEpisode[] = [0, 1, 2, 3, 4, 5].flatMap((episode) => GAMES.flatMap((game) => ['a', 'b'].map((agent) => ({ agent, game, episode }))));

describe('denominators from the declared plan', () => {
  it('names the planned episodes without a result, in plan order, by game, repeat and episode', () => {
    const present = PLAN.filter((p) => !(p.agent === 'b' && p.game === GAMES[1] && p.episode === 5) && !(p.agent === 'a' && p.episode === 2)).map((p) => ({
      agent: p.agent,
      game_id: p.game,
      episode: p.episode,
    }));
    const missing = episodesWithoutResult(PLAN, present);
    const shape = { episodesPerRepeat: 2, repeats: 3 };
    expect(missing.map((p) => episodeName(p, shape, true))).toEqual(['a flod-ce841f4d r1 e0', 'a crat-a280ea19 r1 e0', 'b crat-a280ea19 r2 e1']);
    // One episode a repeat: the repeat alone; one repeat: the episode alone.
    expect(episodeName({ agent: 'a', game: 'ls20', episode: 2 }, { episodesPerRepeat: 1, repeats: 3 }, false)).toBe('ls20 r2');
    expect(episodeName({ agent: 'a', game: 'ls20', episode: 4 }, { episodesPerRepeat: 5, repeats: 1 }, false)).toBe('ls20 e4');
    expect(withoutResultSentence(['ls20 r2', 'ft09 r0'], 12)).toBe(
      '2 of 12 planned episodes have no result: ls20 r2, ft09 r0; their means are unknown, not means of the rest (resume the run to fill them)',
    );
    expect(
      withoutResultSentence(
        Array.from({ length: 10 }, (_, i) => `g e${i}`),
        10,
      ),
    ).toContain('g e7, and 2 more;');
  });

  it('finds nothing missing exactly when every planned episode has a result, and never names one that has', () => {
    fc.assert(
      fc.property(fc.subarray(PLAN), fc.array(fc.constantFrom(...PLAN), { maxLength: 5 }), (kept, duplicates) => {
        const present = [...kept, ...duplicates].map((p) => ({ agent: p.agent, game_id: p.game, episode: p.episode }));
        const missing = episodesWithoutResult(PLAN, present);
        const have = new Set(present.map((p) => `${p.agent} ${p.game_id} ${p.episode}`));
        expect(missing.length).toBe(PLAN.filter((p) => !have.has(`${p.agent} ${p.game} ${p.episode}`)).length);
        for (const m of missing) expect(have.has(`${m.agent} ${m.game} ${m.episode}`)).toBe(false);
      }),
    );
  });
});
