/**
 * Every budget, and the words an episode or the run is ended with when it runs out, kept together so
 * that the knowledge of a budget and what users read of it change as one. The counted budgets are
 * checked before the agent is asked for its next decision, so with `max_actions: 80` the 80th counted
 * action is the last one sent, never an 81st; the wall-time budgets cut the agent's call under way.
 */
import { AgentContractError } from '../agent/actions.ts';
import type { EpisodeOutcome } from '../agent/contract.ts';
import type { UsageTotals } from '../agent/usage.ts';
import { z } from 'zod';
import { positiveInt } from '../protocol/zodIssues.ts';
import type { RunLedger } from './runLedger.ts';

/** The experiment's `budgets:` as its YAML states them (runner/config/schema.ts takes this schema in). */
export const budgetsSchema = z
  .strictObject({
    max_actions: positiveInt('max_actions').default(80).describe('Counted actions per episode (game actions plus level resets); 80 sends exactly 80.'),
    max_actions_per_level: z
      .number()
      .positive()
      .optional()
      .describe("Counted actions per level, as a multiple of that level's baseline (5 = five times the human baseline)."),
    episode_seconds: z.number().positive().optional().describe('Wall time per episode; 14400 (4 h) when not given.'),
    first_action_seconds: z
      .number()
      .positive()
      .optional()
      .describe(
        "Wall time until an episode's agent sends its first action; an agent that hangs before playing ends its episode as `time` (its card is not left idle); 600 when not given.",
      ),
    run_seconds: z.number().positive().optional().describe('Wall time of the whole run; no episode starts after it.'),
    max_cost_usd: z
      .number()
      .positive()
      .optional()
      .describe('Dollars of model calls per episode (from the usage agents report); the episode ends with outcome `cost` once it has spent them.'),
    max_run_cost_usd: z
      .number()
      .positive()
      .optional()
      .describe('Dollars of model calls for the whole run: once spent, no episode starts, episodes in flight end, the cards close and the run is `partial`.'),
  })
  .describe('Limits that end an episode or the run.');

export type Budgets = z.output<typeof budgetsSchema>;

/**
 * The wall-time limits an episode has when the config names none. A hung agent ends (its card is not
 * left waiting forever), yet an LLM episode of hundreds of calls fits. Applied here, not as schema
 * defaults, so that a run made before them still resumes (the plan's fingerprint holds the budgets as written).
 */
export const DEFAULT_FIRST_ACTION_SECONDS = 600;
export const DEFAULT_EPISODE_SECONDS = 4 * 3600;

/** The episode's wall time in seconds: the config's, else the default. */
export const episodeSeconds = (budgets: Budgets): number => budgets.episode_seconds ?? DEFAULT_EPISODE_SECONDS;
/** The wall time until the agent's first action: the config's, else the default. */
export const firstActionSeconds = (budgets: Budgets): number => budgets.first_action_seconds ?? DEFAULT_FIRST_ACTION_SECONDS;

/** `(600 s)`, or `(600 s, the default)` when the config did not name it. */
const stated = (seconds: number, named: number | undefined) => `(${seconds} s${named === undefined ? ', the default' : ''})`;

/** The wall-time budgets, by what their stop cuts: the agent's first action, the episode, the run. */
export type TimeBudget = 'first_action_seconds' | 'episode_seconds' | 'run_seconds';

/** How a record's stop_reason ends when a wall-time budget cut the agent's call under way. */
export function timeSpentSentence(budget: TimeBudget, budgets: Budgets): string {
  if (budget === 'first_action_seconds') {
    return `the agent sent no first action within budgets.first_action_seconds ${stated(firstActionSeconds(budgets), budgets.first_action_seconds)}`;
  }
  if (budget === 'episode_seconds') {
    const byDefault = budgets.episode_seconds === undefined ? `, ${DEFAULT_EPISODE_SECONDS} s by default` : '';
    return `the episode's time (budgets.episode_seconds${byDefault}) ran out; the episode ends and the run goes on`;
  }
  return "the run's wall time (budgets.run_seconds) ran out";
}

/** The run's log when budgets.run_seconds is spent. */
export const RUN_TIME_SPENT = 'run wall time spent: no new episodes; in-flight episodes stop at their next step';
/** The run's log when budgets.max_run_cost_usd is spent. */
export const RUN_DOLLARS_SPENT = 'run dollar budget spent: no new episodes; episodes in flight play to their end';

/** Why budgets.max_actions_per_level cannot be kept for a game the service gives no baselines of. */
export function levelBudgetWithoutBaselines(gameId: string): string {
  return (
    `budgets.max_actions_per_level needs each level's baseline, and the service gives none for ${gameId} ` +
    '(neither in its game list nor in its scorecard); remove max_actions_per_level and cap episodes with max_actions'
  );
}

/** The outcome that ends the episode now, or undefined to go on. */
export function spentBudget(budgets: Budgets, ledger: RunLedger, baselines: readonly number[], usage: UsageTotals): EpisodeOutcome | undefined {
  if (spentDollars(budgets, usage)) return 'cost';
  if (ledger.actions >= budgets.max_actions) return 'budget';
  const multiple = budgets.max_actions_per_level;
  const levelBaseline = baselines[ledger.levelIndex];
  if (multiple !== undefined && levelBaseline !== undefined && ledger.levelActions >= Math.ceil(multiple * levelBaseline)) return 'level_budget';
  return undefined;
}

/**
 * True when the episode has spent its dollar budget. A dollar budget with a call of unknown cost cannot
 * be kept: that is the agent's to fix (it reports no prices), so the episode fails saying so instead of
 * spending on unchecked.
 */
function spentDollars(budgets: Budgets, usage: UsageTotals): boolean {
  if (budgets.max_cost_usd === undefined && budgets.max_run_cost_usd === undefined) return false;
  if (usage.cost_usd === null) {
    throw new AgentContractError(
      'the agent reported a model call without its cost, so the dollar budget (budgets.max_cost_usd / max_run_cost_usd) cannot be kept; give the agent its prices (llm: params.pricing), a Python agent its model_gateway.pricing, or report cost_usd',
    );
  }
  return budgets.max_cost_usd !== undefined && usage.cost_usd >= budgets.max_cost_usd;
}
