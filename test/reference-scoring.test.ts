import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildEnvironmentEntry,
  buildRunEntry,
  buildTagsScores,
  levelActionsFromCompletions,
  levelScore,
  scoreCard,
  scoreRun,
  summarizeEnvironments,
} from '../src/reference/scoring.ts';

describe('levelScore', () => {
  it('is 100·(b/a)² capped at 115, and 0 without actions', () => {
    expect(levelScore(2, 2)).toBe(100);
    expect(levelScore(4, 5)).toBeCloseTo(64, 10);
    expect(levelScore(10, 8)).toBe(115);
    expect(levelScore(10, 20)).toBe(25);
    expect(levelScore(10, 0)).toBe(0);
  });
});

describe('scoreRun (docs/protocol.md §5 checks)', () => {
  it('baselines [2,4,4], level 1 in 2, level 2 in 5, level 3 not done: 38.0 (cap 50)', () => {
    const { score, levelScores } = scoreRun({ baselines: [2, 4, 4], levelActions: [2, 5, 3], levelsCompleted: 2 });
    expect(score).toBeCloseTo(38, 10);
    expect(levelScores[0]).toBe(100);
    expect(levelScores[1]).toBeCloseTo(64, 10);
    expect(levelScores[2]).toBe(0);
  });

  it('six levels of baseline 10 done in 8 each: the cap gives 4.76 … 100', () => {
    const expected = [4.76, 14.29, 28.57, 47.62, 71.43, 100];
    for (let k = 1; k <= 6; k++) {
      const { score } = scoreRun({ baselines: Array(6).fill(10), levelActions: Array(6).fill(8), levelsCompleted: k });
      expect(score).toBeCloseTo(expected[k - 1]!, 2);
    }
  });

  it('scores 0 for no levels and for an untouched run', () => {
    expect(scoreRun({ baselines: [], levelActions: [], levelsCompleted: 0 }).score).toBe(0);
    expect(scoreRun({ baselines: [3, 3], levelActions: [0, 0], levelsCompleted: 0 }).score).toBe(0);
  });
});

describe('levelActionsFromCompletions', () => {
  it('differences of the completion marks, the rest on the first unfinished level', () => {
    expect(levelActionsFromCompletions([2, 7], 10, 3)).toEqual([2, 5, 3]);
    expect(levelActionsFromCompletions([2, 7, 9], 9, 3)).toEqual([2, 5, 2]);
    expect(levelActionsFromCompletions([], 4, 3)).toEqual([4, 0, 0]);
  });
});

describe('tags_scores (docs/protocol.md §5 check)', () => {
  it('pools game A [10,20] level 1 in 20 and game B [15,30,45] level 1 in 25: 61/9', () => {
    const runA = buildRunEntry({
      gameId: 'aaaa-00000001',
      guid: 'g1',
      baselines: [10, 20],
      completionActionCounts: [20],
      levelsCompleted: 1,
      actions: 20,
      resets: 0,
      state: 'NOT_FINISHED',
    });
    const runB = buildRunEntry({
      gameId: 'bbbb-00000001',
      guid: 'g2',
      baselines: [15, 30, 45],
      completionActionCounts: [25],
      levelsCompleted: 1,
      actions: 25,
      resets: 0,
      state: 'NOT_FINISHED',
    });
    const envA = buildEnvironmentEntry({ gameId: 'aaaa-00000001', levelCount: 2, runs: [runA] });
    const envB = buildEnvironmentEntry({ gameId: 'bbbb-00000001', levelCount: 3, runs: [runB] });
    const [tag] = buildTagsScores([
      { gameTags: ['keyboard'], environment: envA },
      { gameTags: ['keyboard'], environment: envB },
    ]);
    expect(tag).toMatchObject({ id: 'keyboard', number_of_levels: 5, number_of_environments: 2, levels_completed: 2, actions: 45 });
    expect(tag?.score).toBeCloseTo(61 / 9, 10);
    expect(tag?.score.toFixed(2)).toBe('6.78');
  });

  it('takes the first run with the most levels completed', () => {
    const run = (guid: string, levelsCompleted: number, a: number) =>
      buildRunEntry({
        gameId: 'aaaa-00000001',
        guid,
        baselines: [10, 10],
        completionActionCounts: levelsCompleted > 0 ? [a] : [],
        levelsCompleted,
        actions: 2 * a,
        resets: 0,
        state: 'NOT_FINISHED',
      });
    const env = buildEnvironmentEntry({ gameId: 'aaaa-00000001', levelCount: 2, runs: [run('r1', 0, 5), run('r2', 1, 20), run('r3', 1, 10)] });
    const [tag] = buildTagsScores([{ gameTags: ['click'], environment: env }]);
    expect(tag?.score).toBeCloseTo(25 / 3, 10);
    expect(tag?.actions).toBe(40);
  });
});

describe('a run past its baselines (docs/protocol.md §5)', () => {
  it('scores 0, as the official scorecard code, listing each level it completed and the one it was on', () => {
    const run = { gameId: 'aaaa-00000001', guid: 'g', baselines: [3, 3], completionActionCounts: [3, 6, 9], levelsCompleted: 3, resets: 0 };
    expect(buildRunEntry({ ...run, actions: 12, state: 'GAME_OVER' })).toMatchObject({
      score: 0,
      level_scores: [0, 0, 0, 0],
      level_actions: [3, 3, 3, 3],
      level_baseline_actions: [-1, -1, -1, -1],
      number_of_levels: 4,
    });
    expect(buildRunEntry({ ...run, actions: 9, state: 'WIN' })).toMatchObject({ score: 0, level_actions: [3, 3, 3], level_baseline_actions: [-1, -1, -1] });
    // Within its baselines a run scores as ever: here, both levels at their baselines.
    expect(buildRunEntry({ ...run, completionActionCounts: [3, 6], levelsCompleted: 2, actions: 6, state: 'NOT_FINISHED' }).score).toBe(100);
  });
});

describe('environment and card aggregates', () => {
  it('best score and levels, summed actions and resets; card mean and totals', () => {
    const base = { gameId: 'aaaa-00000001', baselines: [2, 4, 4], completionActionCounts: [2, 7], resets: 1 };
    const r1 = buildRunEntry({ ...base, guid: 'a', levelsCompleted: 2, actions: 10, state: 'GAME_OVER' });
    const r2 = buildRunEntry({ ...base, guid: 'a', completionActionCounts: [2, 6, 10], levelsCompleted: 3, actions: 10, state: 'WIN' });
    const env = buildEnvironmentEntry({ gameId: 'aaaa-00000001', levelCount: 3, runs: [r1, r2] });
    expect(env.score).toBe(100);
    expect(env.actions).toBe(20);
    expect(env.resets).toBe(2);
    expect(env.levels_completed).toBe(3);
    expect(env.completed).toBe(true);
    expect(r1.completed).toBe(false);
    const empty = buildEnvironmentEntry({ gameId: 'bbbb-00000001', levelCount: 2, runs: [] });
    const totals = summarizeEnvironments([env, empty]);
    expect(totals).toEqual({
      score: 50,
      total_environments_completed: 1,
      total_environments: 2,
      total_levels_completed: 3,
      total_levels: 5,
      total_actions: 20,
    });
    const card = scoreCard([
      { gameTags: ['keyboard'], environment: env },
      { gameTags: ['click'], environment: empty },
    ]);
    expect(card.score).toBe(50);
    expect(card.tags_scores.map((t) => [t.id, t.score])).toEqual([
      ['click', 0],
      ['keyboard', 100],
    ]);
    expect(summarizeEnvironments([]).score).toBe(0);
  });
});

describe('scoring properties', () => {
  const runArb = fc.integer({ min: 1, max: 8 }).chain((n) =>
    fc.record({
      baselines: fc.array(fc.integer({ min: 1, max: 200 }), { minLength: n, maxLength: n }),
      // a completed level always took at least its completing action
      levelActions: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: n, maxLength: n }),
      levelsCompleted: fc.integer({ min: 0, max: n }),
    }),
  );

  it('level scores stay in 0..115, run scores in 0..100 and under the completed-weight cap', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const { score, levelScores } = scoreRun(run);
        for (const s of levelScores) expect(s >= 0 && s <= 115).toBe(true);
        const n = run.baselines.length;
        const cap = (100 * (run.levelsCompleted * (run.levelsCompleted + 1))) / (n * (n + 1));
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100 + 1e-9);
        expect(score).toBeLessThanOrEqual(cap + 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('more actions never raise a level score', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 100 }), (b, a, extra) => {
        expect(levelScore(b, a + extra)).toBeLessThanOrEqual(levelScore(b, a));
      }),
      { numRuns: 200 },
    );
  });

  it('more actions on a completed level never raise the run score', () => {
    fc.assert(
      fc.property(runArb, fc.nat(), fc.integer({ min: 1, max: 50 }), (run, pick, extra) => {
        if (run.levelsCompleted === 0) return;
        const i = pick % run.levelsCompleted;
        const more = run.levelActions.map((a, j) => (j === i ? a + extra : a));
        expect(scoreRun({ ...run, levelActions: more }).score).toBeLessThanOrEqual(scoreRun(run).score + 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('completing every level at or under the baseline scores exactly 100', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }), (baselines) => {
        const { score } = scoreRun({ baselines, levelActions: baselines, levelsCompleted: baselines.length });
        expect(score).toBeCloseTo(100, 9);
      }),
      { numRuns: 100 },
    );
  });
});
