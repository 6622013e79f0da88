/**
 * The budgets checked before the agent is asked for its next decision. Checked before asking, so with
 * `max_actions: 80` the 80th counted action is the last one sent, never an 81st.
 */
import { AgentContractError } from '../../agent/actions.ts';
import type { EpisodeOutcome } from '../../agent/contract.ts';
import type { UsageTotals } from '../../agent/usage.ts';
import type { ExperimentConfig } from '../config/schema.ts';
import type { RunLedger } from './runLedger.ts';

export type Budgets = ExperimentConfig['budgets'];

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
