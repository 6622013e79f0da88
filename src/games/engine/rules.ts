/**
 * The two numbers every level derives from its solution: the baseline (a first-time human's action
 * count, used by scoring) and the step budget (GAME_OVER when spent).
 */

/**
 * A first-time human finds the idea after some wasted moves and takes detours: half as many actions
 * again as the optimum, plus two for getting oriented.
 */
export function baselineForOptimal(optimal: number): number {
  return Math.ceil(1.5 * optimal) + 2;
}

/**
 * Generous enough that a person who explores still finishes (four baselines), yet finite so a random
 * or stuck agent meets GAME_OVER (docs/protocol.md §4.5). Never below 20, so short levels still allow exploring.
 */
export function stepBudgetForBaseline(baseline: number): number {
  return Math.max(20, 4 * baseline);
}
