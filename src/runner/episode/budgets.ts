/**
 * The budgets checked before the agent is asked for its next decision. Checked before asking, so with
 * `max_actions: 80` the 80th counted action is the last one sent, never an 81st.
 */
import type { EpisodeOutcome } from '../../agent/contract.ts';
import type { ExperimentConfig } from '../config/schema.ts';
import type { RunLedger } from './runLedger.ts';

export type Budgets = ExperimentConfig['budgets'];

/** The outcome that ends the episode now, or undefined to go on. */
export function spentBudget(budgets: Budgets, ledger: RunLedger, baselines: readonly number[], deadline: number): EpisodeOutcome | undefined {
  if (deadline !== Infinity && Date.now() >= deadline) return 'time';
  if (ledger.actions >= budgets.max_actions) return 'budget';
  const multiple = budgets.max_actions_per_level;
  const levelBaseline = baselines[ledger.levelIndex];
  if (multiple !== undefined && levelBaseline !== undefined && ledger.levelActions >= Math.ceil(multiple * levelBaseline)) return 'level_budget';
  return undefined;
}
