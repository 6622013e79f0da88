/**
 * How far an episode got, level by level: the counted action at which it first completed each level.
 * From that: how often an agent solves the same level across its episodes and repeats (consistency),
 * the actions it spends on each level, and the level-solve curve over actions that the report draws.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';

type LevelRecord = Pick<EpisodeRecord, 'runs' | 'win_levels'>;

/**
 * Per level, the episode's counted actions when it first completed that level (null: never). Each run
 * starts from the first level, so a level's first completion is the earliest over the runs, counted
 * from the episode's first action (the actions of the runs before it included).
 */
export function levelSolveActions(episode: LevelRecord): (number | null)[] {
  const solved = new Array<number | null>(episode.win_levels).fill(null);
  let before = 0;
  for (const run of [...episode.runs].sort((a, b) => a.sequence - b.sequence)) {
    run.completion_actions.forEach((at, level) => {
      if (level < solved.length && solved[level] === null) solved[level] = before + at;
    });
    before += run.actions;
  }
  return solved;
}

/** Per level, how many of the episodes completed it. */
export function levelSolveCounts(episodes: readonly LevelRecord[], levels: number): number[] {
  const counts = new Array<number>(levels).fill(0);
  for (const episode of episodes) {
    levelSolveActions(episode).forEach((at, level) => {
      if (at !== null && level < levels) counts[level]!++;
    });
  }
  return counts;
}

/**
 * Per level, the mean spent on it (from the previous level's first completion to its own, in whatever
 * each list counts: actions, seconds) by the episodes that completed it; null for a level none completed.
 */
export function meanPerLevel(firstCompletions: ReadonlyArray<readonly (number | null)[]>, levels: number): (number | null)[] {
  const sums = new Array<number>(levels).fill(0);
  const counts = new Array<number>(levels).fill(0);
  for (const solved of firstCompletions) {
    for (let level = 0; level < Math.min(levels, solved.length); level++) {
      const at = solved[level];
      const from = level === 0 ? 0 : solved[level - 1];
      if (at === null || at === undefined || from === null || from === undefined) continue;
      sums[level]! += at - from;
      counts[level]!++;
    }
  }
  return sums.map((sum, level) => (counts[level] === 0 ? null : sum / counts[level]!));
}

/** Per level, the mean actions spent on it by the episodes that completed it. */
export const meanActionsPerLevel = (episodes: readonly LevelRecord[], levels: number) => meanPerLevel(episodes.map(levelSolveActions), levels);

/** Per level, the mean wall seconds spent on it; undefined when some episode's record has no level times (an older version's). */
export function meanSecondsPerLevel(
  episodes: ReadonlyArray<Pick<EpisodeRecord, 'level_seconds' | 'levels_completed'>>,
  levels: number,
): (number | null)[] | undefined {
  if (episodes.some((e) => e.levels_completed > 0 && e.level_seconds === undefined)) return undefined;
  return meanPerLevel(
    episodes.map((e) => e.level_seconds ?? []),
    levels,
  );
}

/** `3/3 · 1/3 · 0/3`: per level, the episodes that solved it of the episodes played. */
export function describeSolveCounts(counts: readonly number[], episodes: number): string {
  return counts.length === 0 ? 'no levels' : counts.map((n) => `${n}/${episodes}`).join(' · ');
}

/** A point of the level-solve curve: by `actions` counted actions, `solved` levels were completed in all. */
export interface SolveCurvePoint {
  readonly actions: number;
  readonly solved: number;
}

/**
 * The level-solve curve of a set of episodes: levels completed (summed over the episodes) against the
 * counted actions each episode had taken, from (0, 0) to the last level completed; `levels` is how many
 * there were to complete (the curve's ceiling).
 */
export function levelSolveCurve(episodes: readonly LevelRecord[]): { points: SolveCurvePoint[]; levels: number } {
  const at = episodes.flatMap((e) => levelSolveActions(e).filter((a): a is number => a !== null)).sort((a, b) => a - b);
  const points: SolveCurvePoint[] = [{ actions: 0, solved: 0 }];
  at.forEach((actions, i) => {
    const last = points[points.length - 1]!;
    if (last.actions === actions) points[points.length - 1] = { actions, solved: i + 1 };
    else points.push({ actions, solved: i + 1 });
  });
  return { points, levels: episodes.reduce((sum, e) => sum + e.win_levels, 0) };
}
