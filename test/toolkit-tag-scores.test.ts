/**
 * tags_scores as the toolkit's scorecard.py computes them (src/reference/server/toolkitTagScores.ts): worked
 * checks of each of its rules, and a property holding it to a second reading of scorecard.py that works from
 * a run's raw counts (its actions at each level completion), not from the run entries the service built.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnvironmentEntry, TagScore } from '../src/protocol/index.ts';
import { buildEnvironmentEntry, buildRunEntry, type RunRecord } from '../src/reference/scoring.ts';
import { toolkitTagsScores } from '../src/reference/server/toolkitTagScores.ts';

interface RawRun {
  completions: number[];
  actions: number;
  won: boolean;
}

function environment(gameId: string, baselines: number[], runs: RawRun[]): EnvironmentEntry {
  const records: RunRecord[] = runs.map((run, i) => ({
    gameId,
    guid: `${gameId}-${i}`,
    baselines,
    completionActionCounts: run.completions,
    levelsCompleted: run.completions.length,
    actions: run.actions,
    resets: 0,
    state: run.won ? 'WIN' : 'NOT_FINISHED',
  }));
  return buildEnvironmentEntry({ gameId, levelCount: baselines.length, runs: records.map(buildRunEntry) });
}

describe('toolkitTagsScores: worked checks', () => {
  it('pools the best run of each game (the first with most levels), every level weighted by its number', () => {
    // a: [4,8,16]; run 1 completes level 1 in 4, run 2 levels 1 and 2 in 4 and 16 (actions 4, 12), then 3 more.
    const a = environment(
      'aaaa-1',
      [4, 8, 16],
      [
        { completions: [4], actions: 6, won: false },
        { completions: [4, 16], actions: 19, won: false },
        { completions: [2, 5], actions: 5, won: false },
      ],
    );
    // b: [10]; its one run wins the one level in 20 actions: 25.
    const b = environment('bbbb-1', [10], [{ completions: [20], actions: 20, won: true }]);
    const [shared, onlyA] = toolkitTagsScores([
      { tags: ['shared', 'only-a'], environment: a },
      { tags: ['shared'], environment: b },
    ]);
    // a's run 2: level scores 100, 100·(8/12)² = 44.44…, 0 (3 actions); b: 25 at weight 1. The numbers are
    // those of scorecard.py's own EnvironmentScoreCalculator fed these levels, to the last bit.
    expect(onlyA).toEqual({ id: 'only-a', score: 31.48148148148148, levels_completed: 2, actions: 19, number_of_levels: 3, number_of_environments: 1 });
    expect(shared).toEqual({ id: 'shared', score: 30.555555555555554, levels_completed: 3, actions: 39, number_of_levels: 4, number_of_environments: 2 });
  });

  it('caps a pool at 100 × the share of the weight that scored', () => {
    // Level 1 beaten far under its baseline (115), level 2 not done: the mean 115/3 is capped at 100/3.
    const game = environment('cccc-1', [40, 10], [{ completions: [4], actions: 4, won: false }]);
    // scorecard.py's (1/3)·100, which is not 100/3 in the last bit.
    expect(toolkitTagsScores([{ tags: ['t'], environment: game }])[0]!.score).toBe(33.33333333333333);
  });

  it('lists tags in the order first met, and pools a tag written twice twice', () => {
    const first = environment('zzzz-1', [2], [{ completions: [2], actions: 2, won: true }]);
    const second = environment('aaaa-1', [2], [{ completions: [], actions: 1, won: false }]);
    const scores = toolkitTagsScores([
      { tags: ['z', 'twice', 'twice'], environment: first },
      { tags: ['a', 'z'], environment: second },
    ]);
    expect(scores.map((s) => s.id)).toEqual(['z', 'twice', 'a']);
    expect(scores[1]).toMatchObject({ number_of_levels: 2, levels_completed: 2, actions: 4, number_of_environments: 1 });
  });

  it('counts only the actions of levels with a baseline; a run past its baselines, or a game without tags, adds nothing', () => {
    // Three levels with baselines completed at 4, 12 and 28 actions, one more click on the fourth: 28 actions pooled.
    const within = environment('bt33-1', [10, 15, 20], [{ completions: [4, 12, 28], actions: 29, won: false }]);
    expect(toolkitTagsScores([{ tags: ['t'], environment: within }])[0]).toMatchObject({ actions: 28, levels_completed: 3, score: 100 });
    const past = environment('bt33-1', [10, 15, 20], [{ completions: [4, 12, 28, 48], actions: 50, won: false }]);
    expect(toolkitTagsScores([{ tags: ['t'], environment: past }])).toEqual([]);
    expect(toolkitTagsScores([{ tags: null, environment: within }])).toEqual([]);
  });

  it('pools a game with an unplayed run (competition close) as all its levels at 0', () => {
    const unplayed = environment('dddd-1', [3, 3], [{ completions: [], actions: 0, won: false }]);
    expect(toolkitTagsScores([{ tags: ['t'], environment: unplayed }])).toEqual([
      { id: 't', score: 0, levels_completed: 0, actions: 0, number_of_levels: 2, number_of_environments: 1 },
    ]);
  });
});

/** scorecard.py's reading, from a game's raw runs: the best run's levels, each run's actions split at its completions. */
function asScorecardPy(games: { gameId: string; tags: string[] | null; baselines: number[]; runs: RawRun[] }[]): TagScore[] {
  const pools = new Map<string, { scores: number[]; weights: number[]; completed: number; actions: number; games: Set<string> }>();
  for (const game of games) {
    let best = -1;
    for (const [i, run] of game.runs.entries()) if (best < 0 || run.completions.length > game.runs[best]!.completions.length) best = i;
    const run = game.runs[best];
    if (run === undefined || game.baselines.length < run.completions.length) continue;
    let previous = 0;
    for (const [i, baseline] of game.baselines.entries()) {
      const completed = i < run.completions.length;
      const actions = (completed ? run.completions[i]! : run.actions) - previous;
      previous = completed ? run.completions[i]! : run.actions;
      // Python's order of operations, as scorecard.py writes them.
      const score = completed && actions > 0 ? Math.min(115, (baseline / actions) ** 2 * 100) : 0;
      for (const tag of game.tags ?? []) {
        const pool = pools.get(tag) ?? { scores: [], weights: [], completed: 0, actions: 0, games: new Set<string>() };
        pools.set(tag, pool);
        pool.scores.push(score);
        pool.weights.push(i + 1);
        pool.completed += completed ? 1 : 0;
        pool.actions += actions;
        pool.games.add(game.gameId);
      }
    }
  }
  return [...pools.entries()].map(([id, pool]) => {
    const total = pool.weights.reduce((a, b) => a + b, 0);
    const mean = pool.scores.reduce((sum, score, i) => sum + score * pool.weights[i]!, 0) / total;
    const scoredWeight = pool.weights.filter((_, i) => pool.scores[i]! > 0).reduce((a, b) => a + b, 0);
    return {
      id,
      score: Math.min(mean, (scoredWeight / total) * 100),
      levels_completed: pool.completed,
      actions: pool.actions,
      number_of_levels: pool.scores.length,
      number_of_environments: pool.games.size,
    };
  });
}

/** A run of a game of `levels` levels: its completions strictly rising, its actions at least the last one. */
const rawRunArb = (levels: number) =>
  fc.tuple(fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: levels + 1 }), fc.integer({ min: 0, max: 10 })).map(([gaps, after]): RawRun => {
    let mark = 0;
    const completions = gaps.map((gap) => (mark += gap));
    return { completions, actions: (completions.at(-1) ?? 0) + after, won: completions.length >= levels && after === 0 };
  });

const gameArb = (gameId: string) =>
  fc
    .tuple(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), fc.option(fc.array(fc.constantFrom('t1', 't2', 't3'), { maxLength: 3 })))
    .chain(([baselines, tags]) =>
      fc.record({
        gameId: fc.constant(gameId),
        tags: fc.constant(tags),
        baselines: fc.constant(baselines),
        runs: fc.array(rawRunArb(baselines.length), { minLength: 1, maxLength: 4 }),
      }),
    );

describe('toolkitTagsScores: property', () => {
  it('agrees with scorecard.py read from the raw counts, and every score lies in [0, 100]', () => {
    fc.assert(
      fc.property(fc.tuple(gameArb('aaaa-1'), gameArb('bbbb-1'), gameArb('cccc-1')), (games) => {
        const environments = games.map((game) => ({ tags: game.tags, environment: environment(game.gameId, game.baselines, game.runs) }));
        const got = toolkitTagsScores(environments);
        const expected = asScorecardPy(games);
        expect(got).toEqual(expected);
        for (const entry of got) expect(entry.score >= 0 && entry.score <= 100).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
