/**
 * Scoring of docs/protocol.md §5 as pure functions over plain data. The reference service builds its scorecards
 * with them, and the runner scores its own episodes with the very same code, so a local score and the
 * service's score can be compared number for number.
 */
import type { EnvironmentEntry, GameState, RunEntry, TagScore } from '../protocol/index.ts';

/** A completed level can earn more than 100 for beating the human baseline, up to this. */
export const LEVEL_SCORE_CAP = 115;

/** The states a run can be in (a run only exists once played, so never NOT_PLAYED). */
export type RunState = Exclude<GameState, 'NOT_PLAYED'>;

/** One level as it enters a weighted pool: its weight, its score, whether it was completed. */
export interface WeightedLevel {
  readonly weight: number;
  readonly score: number;
  readonly completed: boolean;
}

/**
 * Score of one completed level: min(115, 100·(b/a)²); 0 when no actions or no baseline. Computed in the
 * official scorecard code's order, (b/a)² first, so both give the same floating-point number to the last bit.
 */
export function levelScore(baseline: number, actions: number): number {
  if (!(actions > 0) || !(baseline > 0)) return 0;
  const ratio = baseline / actions;
  return Math.min(LEVEL_SCORE_CAP, ratio * ratio * 100);
}

/** Weighted mean of level scores, capped at 100 × the completed share of the weight (0 for an empty pool). */
export function weightedPoolScore(levels: readonly WeightedLevel[]): number {
  let totalWeight = 0;
  let weightedSum = 0;
  let completedWeight = 0;
  for (const level of levels) {
    totalWeight += level.weight;
    weightedSum += level.weight * level.score;
    if (level.completed) completedWeight += level.weight;
  }
  if (totalWeight <= 0) return 0;
  // (w/W)·100, not 100w/W: the official scorecard's order, whose last bit a capped score shows.
  return Math.min(weightedSum / totalWeight, (completedWeight / totalWeight) * 100);
}

/** What scoreRun needs: the game's baselines (one per level), actions per level, levels completed. */
export interface RunScoreInput {
  readonly baselines: readonly number[];
  /** Actions spent on each level (docs/protocol.md §5 "level actions"); missing entries count as 0. */
  readonly levelActions: readonly number[];
  readonly levelsCompleted: number;
}

/** The run score of docs/protocol.md §5: weights w_i = i over all levels, capped by the completed weight. */
export function scoreRun(input: RunScoreInput): { score: number; levelScores: number[] } {
  const levelScores = input.baselines.map((baseline, i) => (i < input.levelsCompleted ? levelScore(baseline, input.levelActions[i] ?? 0) : 0));
  return { score: weightedPoolScore(runLevels(levelScores, input.levelsCompleted)), levelScores };
}

/** A run's levels with their in-game weights (level i, 1-based, weighs i). */
function runLevels(levelScores: readonly number[], levelsCompleted: number): WeightedLevel[] {
  return levelScores.map((score, i) => ({ weight: i + 1, score, completed: i < levelsCompleted }));
}

/**
 * Actions per level from the cumulative run action count at each level's completion (docs/protocol.md §5):
 * a_k = c_k − c_{k−1}; actions after the last completion go to the first unfinished level; later
 * levels get 0. The result has one entry per level.
 */
export function levelActionsFromCompletions(completionActionCounts: readonly number[], totalActions: number, levelCount: number): number[] {
  const result = new Array<number>(levelCount).fill(0);
  let previous = 0;
  for (let k = 0; k < levelCount; k++) {
    const completion = completionActionCounts[k];
    if (completion === undefined) {
      result[k] = totalActions - previous;
      break;
    }
    result[k] = completion - previous;
    previous = completion;
  }
  return result;
}

/** Everything known about one run, as the service or the runner recorded it. */
export interface RunRecord {
  readonly gameId: string;
  readonly guid: string;
  readonly baselines: readonly number[];
  /** The run's counted actions when each level was completed, in order (levelActionsFromCompletions). */
  readonly completionActionCounts: readonly number[];
  readonly levelsCompleted: number;
  /** Counted actions of the run: game actions plus level resets. */
  readonly actions: number;
  /** Level resets of the run. */
  readonly resets: number;
  readonly state: RunState;
}

/** The scorecard's run entry (docs/protocol.md §5) of one run. */
export function buildRunEntry(run: RunRecord): RunEntry {
  if (run.levelsCompleted > run.baselines.length) return pastItsBaselines(run);
  const levelCount = run.baselines.length;
  const levelActions = levelActionsFromCompletions(run.completionActionCounts, run.actions, levelCount);
  const { score, levelScores } = scoreRun({ ...run, levelActions });
  return {
    id: run.gameId,
    guid: run.guid,
    score,
    levels_completed: run.levelsCompleted,
    actions: run.actions,
    resets: run.resets,
    state: run.state,
    completed: run.state === 'WIN',
    level_scores: levelScores,
    level_actions: levelActions,
    level_baseline_actions: [...run.baselines],
    number_of_levels: levelCount,
    number_of_environments: 1,
  };
}

/** The baseline a run past its baselines lists for each of its levels: none known. */
const NO_BASELINE = -1;

/** Whether the run was scored against its game's baselines, not past them (pastItsBaselines). */
export function scoredAgainstBaselines(run: RunEntry): boolean {
  return !run.level_baseline_actions.includes(NO_BASELINE);
}

/**
 * A run that completed more levels than its game has baselines (an official game whose metadata lists
 * fewer, as the toolkit's bt33): its baselines do not describe the game played, and the official
 * scorecard code scores it 0, each level completed (and the one it was on, unless won) with its
 * actions, a score of 0 and a baseline of -1.
 */
function pastItsBaselines(run: RunRecord): RunEntry {
  const levelCount = run.levelsCompleted + (run.state === 'WIN' ? 0 : 1);
  const levelActions = levelActionsFromCompletions(run.completionActionCounts, run.actions, levelCount);
  return {
    id: run.gameId,
    guid: run.guid,
    score: 0,
    levels_completed: run.levelsCompleted,
    actions: run.actions,
    resets: run.resets,
    state: run.state,
    completed: run.state === 'WIN',
    level_scores: levelActions.map(() => 0),
    level_actions: levelActions,
    level_baseline_actions: levelActions.map(() => NO_BASELINE),
    number_of_levels: levelCount,
    number_of_environments: 1,
  };
}

/** What an environment entry is built from: the game, its level count, its runs (possibly none). */
export interface EnvironmentInput {
  readonly gameId: string;
  readonly levelCount: number;
  readonly runs: readonly RunEntry[];
}

/** The environment entry of docs/protocol.md §5: best run score and levels, summed actions and resets. */
export function buildEnvironmentEntry(input: EnvironmentInput): EnvironmentEntry {
  let score = 0;
  let actions = 0;
  let resets = 0;
  let levelsCompleted = 0;
  let completed = false;
  for (const run of input.runs) {
    score = Math.max(score, run.score);
    actions += run.actions;
    resets += run.resets;
    levelsCompleted = Math.max(levelsCompleted, run.levels_completed);
    completed ||= run.completed;
  }
  return {
    id: input.gameId,
    runs: [...input.runs],
    score,
    actions,
    levels_completed: levelsCompleted,
    completed,
    // A run past its baselines lists more levels than the game's baselines (the official code's count).
    level_count: Math.max(input.levelCount, ...input.runs.map((run) => run.level_scores.length)),
    resets,
  };
}

/** The first run with the most levels completed: the run a game contributes to its tags. */
export function bestRun(runs: readonly RunEntry[]): RunEntry | undefined {
  let best: RunEntry | undefined;
  for (const run of runs) if (best === undefined || run.levels_completed > best.levels_completed) best = run;
  return best;
}

/** An environment with the game's input tags (keyboard, click, …), for tags_scores. */
export interface TaggedEnvironment {
  readonly gameTags: readonly string[];
  readonly environment: EnvironmentEntry;
}

/**
 * tags_scores of docs/protocol.md §5: per game tag, the best run of each game contributes all its levels with
 * their in-game weights; the pool takes the weighted mean and the completed-weight cap. A game with no
 * run (competition close) contributes its levels at 0. Sorted by tag.
 */
export function buildTagsScores(environments: readonly TaggedEnvironment[]): TagScore[] {
  const pools = new Map<string, { levels: WeightedLevel[]; levelsCompleted: number; actions: number; environments: number }>();
  for (const { gameTags, environment } of environments) {
    const run = bestRun(environment.runs);
    const levels = run ? runLevels(run.level_scores, run.levels_completed) : runLevels(new Array<number>(environment.level_count).fill(0), 0);
    for (const tag of new Set(gameTags)) {
      let pool = pools.get(tag);
      if (pool === undefined) {
        pool = { levels: [], levelsCompleted: 0, actions: 0, environments: 0 };
        pools.set(tag, pool);
      }
      pool.levels.push(...levels);
      pool.levelsCompleted += run?.levels_completed ?? 0;
      pool.actions += run?.actions ?? 0;
      pool.environments += 1;
    }
  }
  return [...pools.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([tag, pool]) => ({
      id: tag,
      score: weightedPoolScore(pool.levels),
      levels_completed: pool.levelsCompleted,
      actions: pool.actions,
      number_of_levels: pool.levels.length,
      number_of_environments: pool.environments,
    }));
}

/** The card-level numbers of docs/protocol.md §5. */
export interface CardTotals {
  score: number;
  total_environments_completed: number;
  total_environments: number;
  total_levels_completed: number;
  total_levels: number;
  total_actions: number;
}

/** Card score (mean of environment scores, 0 when none) and totals over the given environments. */
export function summarizeEnvironments(environments: readonly EnvironmentEntry[]): CardTotals {
  const totals: CardTotals = {
    score: 0,
    total_environments_completed: 0,
    total_environments: environments.length,
    total_levels_completed: 0,
    total_levels: 0,
    total_actions: 0,
  };
  let scoreSum = 0;
  for (const env of environments) {
    scoreSum += env.score;
    if (env.completed) totals.total_environments_completed += 1;
    totals.total_levels_completed += env.levels_completed;
    totals.total_levels += env.level_count;
    totals.total_actions += env.actions;
  }
  totals.score = environments.length === 0 ? 0 : scoreSum / environments.length;
  return totals;
}

/** The scored part of a scorecard: environments, tags_scores, score and totals, in one call. */
export interface ScoredCard extends CardTotals {
  environments: EnvironmentEntry[];
  tags_scores: TagScore[];
}

/** Scores a card's environments (each with its game's tags) into the scorecard's scored fields. */
export function scoreCard(environments: readonly TaggedEnvironment[]): ScoredCard {
  const entries = environments.map((e) => e.environment);
  const totals = summarizeEnvironments(entries);
  return {
    score: totals.score,
    environments: entries,
    tags_scores: buildTagsScores(environments),
    total_environments_completed: totals.total_environments_completed,
    total_environments: totals.total_environments,
    total_levels_completed: totals.total_levels_completed,
    total_levels: totals.total_levels,
    total_actions: totals.total_actions,
  };
}
