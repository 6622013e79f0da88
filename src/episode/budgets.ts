/**
 * The budgets checked before the agent is asked for its next decision. Checked before asking, so with
 * `max_actions: 80` the 80th counted action is the last one sent, never an 81st.
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
    episode_seconds: z.number().positive().optional().describe('Wall time per episode.'),
    first_action_seconds: z
      .number()
      .positive()
      .optional()
      .describe(
        "Wall time until an episode's agent sends its first action; an agent that hangs before playing ends its episode as `time` (its card is not left idle).",
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
      'the agent reported a model call without its cost, so the dollar budget (budgets.max_cost_usd / max_run_cost_usd) cannot be kept; give the agent its prices (llm: params.pricing) or report cost_usd',
    );
  }
  return budgets.max_cost_usd !== undefined && usage.cost_usd >= budgets.max_cost_usd;
}
