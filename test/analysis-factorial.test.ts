// The statistics of factorial arms and the comparison of harness cards, on made-up episodes: the
// frontier is exactly the undominated arms; a main effect is its levels' difference, paired by game
// when there are games to pair on; two cards differ exactly where a fact does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costFrontier } from '../src/analysis/costFrontier.ts';
import type { ScoredEpisode } from '../src/analysis/episodeSample.ts';
import { type ArmAgent, factorialDesigns, ONE_GAME, PAIRED_BY_GAME } from '../src/analysis/factorEffects.ts';
import { compareHarnessCards, harnessCardLines, harnessCardMarkdown } from '../src/analysis/harnessCardDiff.ts';
import { emptyUsage } from '../src/agent/usage.ts';
import { HARNESS_CARD_FORMAT, type HarnessCard } from '../src/runfolder/harnessCard.ts';

function episode(agent: string, game: string, index: number, score: number, cost: number | null = 0): ScoredEpisode {
  return { agent, game, episode: index, seed: index, score, usage: { ...emptyUsage(), calls: cost === 0 ? 0 : 1, cost_usd: cost } };
}

describe('the score-against-cost frontier', () => {
  it('holds exactly the arms no other arm beats on both score and dollars (property)', () => {
    const arm = fc.record({ score: fc.integer({ min: 0, max: 5 }), cost: fc.integer({ min: 1, max: 5 }) });
    fc.assert(
      fc.property(fc.array(arm, { minLength: 1, maxLength: 8 }), (arms) => {
        const labels = arms.map((_, i) => `a${i}`);
        const frontier = costFrontier(
          labels,
          arms.map((a, i) => episode(`a${i}`, 'g', 0, a.score, a.cost)),
        );
        const beats = (o: (typeof arms)[number], a: (typeof arms)[number]) => o.score >= a.score && o.cost <= a.cost && (o.score > a.score || o.cost < a.cost);
        expect(frontier.points.map((p) => p.on_frontier)).toEqual(arms.map((a) => !arms.some((o) => beats(o, a))));
        expect(frontier.points.some((p) => p.on_frontier)).toBe(true);
        expect(frontier.note).toBeNull();
      }),
    );
  });

  it('leaves an arm whose calls had no price off the frontier, and says so', () => {
    const frontier = costFrontier(['a', 'b'], [episode('a', 'g', 0, 1, 0.5), episode('b', 'g', 0, 9, null)]);
    expect(frontier.points.map((p) => [p.agent, p.on_frontier, p.cost_per_episode])).toEqual([
      ['a', true, 0.5],
      ['b', false, null],
    ]);
    expect(frontier.note).toBe('Cost unknown for b (no prices for their calls): left off the frontier.');
    expect(costFrontier(['b'], [episode('b', 'g', 0, 9, null)]).note).toContain('No cost recorded: no agent gave prices');
  });
});

/** Arms of a 2×2 design (a: x/y, b: 1/2). */
const ARMS: ArmAgent[] = [
  { label: 'p[a=x,b=1]', arm: { of: 'p', levels: { a: 'x', b: 1 } } },
  { label: 'p[a=x,b=2]', arm: { of: 'p', levels: { a: 'x', b: 2 } } },
  { label: 'p[a=y,b=1]', arm: { of: 'p', levels: { a: 'y', b: 1 } } },
  { label: 'p[a=y,b=2]', arm: { of: 'p', levels: { a: 'y', b: 2 } } },
];

describe('main effects', () => {
  it('is the difference of its levels’ means, paired by game, with an interval around it (property)', () => {
    const scores = fc.array(fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 4, maxLength: 4 }), { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(scores, (byGame) => {
        // byGame[g][arm]: one episode per arm and game.
        const episodes = byGame.flatMap((row, g) => row.map((score, arm) => episode(ARMS[arm]!.label, `g${g}`, 0, score)));
        const [design] = factorialDesigns(ARMS, episodes);
        const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
        const levelMean = (arms: number[]) => mean(byGame.map((row) => mean(arms.map((i) => row[i]!))));
        const [a, b] = design!.factors;
        expect(a!.levels[1]!.effect!.value).toBeCloseTo(levelMean([2, 3]) - levelMean([0, 1]), 6);
        expect(b!.levels[1]!.effect!.value).toBeCloseTo(levelMean([1, 3]) - levelMean([0, 2]), 6);
        for (const factor of design!.factors) {
          const effect = factor.levels[1]!.effect!;
          expect(effect.pairing).toBe(PAIRED_BY_GAME);
          expect(effect.games).toBe(byGame.length);
          expect(effect.interval!.low).toBeLessThanOrEqual(effect.value + 1e-9);
          expect(effect.interval!.high).toBeGreaterThanOrEqual(effect.value - 1e-9);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('on one game, compares the levels’ episodes, unpaired, and says so', () => {
    const episodes = ARMS.flatMap((arm, i) => [0, 1, 2].map((n) => episode(arm.label, 'g', n, i >= 2 ? 10 + n : n)));
    const effect = factorialDesigns(ARMS, episodes)[0]!.factors[0]!.levels[1]!.effect!;
    expect(effect).toMatchObject({ value: 10, games: 1, pairing: ONE_GAME });
    expect(effect.interval).not.toBeNull();
  });

  it('says when some combination of levels was not played', () => {
    const episodes = ARMS.slice(0, 3).map((arm) => episode(arm.label, 'g', 0, 1));
    expect(factorialDesigns(ARMS.slice(0, 3), episodes)[0]!.note).toBe(
      '3 of the 4 combinations of levels were played: each effect is taken over unequal levels of the other factors',
    );
    expect(factorialDesigns(ARMS, [...episodes, episode(ARMS[3]!.label, 'g', 0, 1)])[0]!.note).toBeNull();
  });

  it('leaves out a game not every arm played, and has no effect without common games', () => {
    const [design] = factorialDesigns(ARMS, [episode(ARMS[0]!.label, 'g', 0, 5)]);
    expect(design!.factors[0]!.levels.map((l) => [l.mean, l.effect])).toEqual([
      [null, null],
      [null, null],
    ]);
  });
});

function card(run: HarnessCard['run'], agents: HarnessCard['agents']): HarnessCard {
  return { format: HARNESS_CARD_FORMAT, run, agents };
}

describe('comparing harness cards', () => {
  it('lists every differing fact of the run and of agents with the same label, and agents on one card only', () => {
    const before = card({ concurrency: 4, seed: 1 }, [
      { label: 'llm', facts: { model: 'a', batch_size: 1 } },
      { label: 'old', facts: {} },
    ]);
    const after = card({ concurrency: 8, seed: 1 }, [
      { label: 'llm', facts: { model: 'b', batch_size: 1, compaction: 'summary' } },
      { label: 'new', facts: {} },
    ]);
    expect(harnessCardLines(compareHarnessCards(before, after))).toEqual([
      'Harness cards differ (baseline → candidate); the scores below compare these harnesses too:',
      '  run: concurrency 4 → 8',
      '  agent llm: model a → b',
      '  agent llm: compaction not said → summary',
      '  agent old: only in the baseline',
      '  agent new: only in the candidate',
    ]);
    expect(compareHarnessCards(before, before).state).toBe('identical');
    expect(harnessCardMarkdown(compareHarnessCards(before, after)).split('\n').slice(0, 4)).toEqual([
      'Harness cards differ (baseline → candidate); the scores below compare these harnesses too:',
      '',
      '- run: concurrency 4 → 8',
      '- agent llm: model a → b',
    ]);
  });

  it('compares two chosen agents of the runs with each other', () => {
    const one = card({}, [
      { label: 'random', facts: { agent: 'random' } },
      { label: 'explorer', facts: { agent: 'explorer' } },
    ]);
    const lines = harnessCardLines(compareHarnessCards(one, one, { baseline: 'random', candidate: 'explorer' }));
    expect(lines.slice(1)).toEqual(['  agent random → explorer: agent random → explorer']);
  });
});
