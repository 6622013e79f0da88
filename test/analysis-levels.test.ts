// Level progress and the human baseline over episode records of any shape (fast-check): first
// completions across runs, the level-solve curve, the mean spent per level, actions against baselines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineShare, costPerLevel } from '../src/analysis/humanBaseline.ts';
import { levelSolveActions, levelSolveCounts, levelSolveCurve, meanPerLevel } from '../src/analysis/levelProgress.ts';
import { noteLevelTimes } from '../src/episode/levelTimes.ts';
import { type RecordedRun, startedRecord } from '../src/runfolder/episodeRecord.ts';

const LEVELS = 4;

/** A run that completed `levels` levels at increasing action counts, and took `extra` actions more. */
const run = fc.tuple(fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: LEVELS }), fc.integer({ min: 0, max: 20 })).map(([steps, extra]): RecordedRun => {
  const completion_actions = steps.map((_, i) => steps.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const actions = (completion_actions.at(-1) ?? 0) + extra;
  return { guid: 'g', sequence: 0, actions, resets: 0, levels_completed: steps.length, completion_actions, state: 'NOT_FINISHED' };
});
const episode = fc.array(run, { minLength: 1, maxLength: 3 }).map((runs) => ({ runs: runs.map((r, i) => ({ ...r, sequence: i })), win_levels: LEVELS }));

describe('level progress', () => {
  it('a level’s first completion counts the actions of the runs before it, and the first run to reach it wins', () => {
    const runs: RecordedRun[] = [
      { guid: 'a', sequence: 0, actions: 50, resets: 0, levels_completed: 1, completion_actions: [10], state: 'NOT_FINISHED' },
      { guid: 'b', sequence: 1, actions: 30, resets: 0, levels_completed: 2, completion_actions: [5, 25], state: 'NOT_FINISHED' },
    ];
    expect(levelSolveActions({ runs, win_levels: 3 })).toEqual([10, 75, null]);
    expect(meanPerLevel([[10, 75, null]], 3)).toEqual([10, 65, null]);
  });

  it('the curve rises by one level at a time to every level completed, and the counts agree with it', () => {
    fc.assert(
      fc.property(fc.array(episode, { maxLength: 5 }), (episodes) => {
        const { points, levels } = levelSolveCurve(episodes);
        const solved = episodes.reduce((sum, e) => sum + levelSolveActions(e).filter((a) => a !== null).length, 0);
        expect(levels).toBe(LEVELS * episodes.length);
        expect(points[0]).toEqual({ actions: 0, solved: 0 });
        expect(points.at(-1)!.solved).toBe(solved);
        for (let i = 1; i < points.length; i++) {
          expect(points[i]!.actions).toBeGreaterThan(points[i - 1]!.actions);
          expect(points[i]!.solved).toBeGreaterThan(points[i - 1]!.solved);
        }
        expect(levelSolveCounts(episodes, LEVELS).reduce((a, b) => a + b, 0)).toBe(solved);
      }),
    );
  });

  it('the mean spent per level, summed over the levels one episode solved, is its action at the last of them', () => {
    fc.assert(
      fc.property(episode, (e) => {
        const at = levelSolveActions(e);
        const solved = at.filter((a) => a !== null).length;
        const spent = meanPerLevel([at], LEVELS).slice(0, solved) as number[];
        expect(spent.reduce((a, b) => a + b, 0)).toBe(solved === 0 ? 0 : at[solved - 1]);
      }),
    );
  });
});

describe('against the human baseline', () => {
  it('is the actions over the summed baselines, unknown where a game has none; dollars per level need a level', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 5 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (rows) => {
          const episodes = rows.map(([actions, baselines]) => ({ actions, baselines }));
          const human = rows.reduce((sum, [, b]) => sum + b.reduce((x, y) => x + y, 0), 0);
          expect(baselineShare(episodes)).toBeCloseTo(rows.reduce((sum, [a]) => sum + a, 0) / human, 12);
          expect(baselineShare([...episodes, { actions: 3, baselines: [], baselines_known: false }])).toBeNull();
        },
      ),
    );
    expect(costPerLevel(1.5, 3)).toBe(0.5);
    expect([costPerLevel(1.5, 0), costPerLevel(null, 3)]).toEqual([null, null]);
  });
});

describe('level times', () => {
  const game = { game_id: 'flod-ce841f4d', title: 'Flood', baseline_actions: [5, 9, 12] };
  it('keeps the first completion of each level, from the episode start, and leaves a continued episode without times', () => {
    const started = Date.parse('2026-01-01T00:00:00Z');
    const record = startedRecord('a', game, 0, 1, 'card', started);
    noteLevelTimes(record, 0, started + 500);
    expect(record.level_seconds).toBeUndefined();
    noteLevelTimes(record, 2, started + 1500); // two levels shown completed by one answer
    noteLevelTimes(record, 0, started + 2000); // a new run starts from the first level again
    noteLevelTimes(record, 1, started + 2500);
    noteLevelTimes(record, 3, started + 4000);
    expect(record.level_seconds).toEqual([1.5, 1.5, 4]);

    const continued = { ...startedRecord('a', game, 1, 2, 'card', started), continued: { from_attempt: 1, from_step: 40 } };
    noteLevelTimes(continued, 2, started + 1000);
    expect(continued.level_seconds).toBeUndefined();
  });
});
