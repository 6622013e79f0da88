/**
 * An agent process failed after its model gateway refused a call because the episode's dollar budget
 * was spent: the budget ended the episode (outcome `cost`), not the agent's error, which the SDK raised
 * only because of the refusal. Apart from the gateway so the episode loop knows it without loading it.
 */
import { ArcbenchError } from '../../errors.ts';

export class DollarBudgetSpent extends ArcbenchError {
  constructor(message: string) {
    super('DOLLAR_BUDGET_SPENT', message);
  }
}
