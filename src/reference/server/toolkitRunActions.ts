/**
 * A run's `actions` as the toolkit's scorecard counts them (docs/protocol.md §7a; its scorecard.py): a run
 * scored against its game's baselines counts the actions of the levels it was scored on, so the actions
 * a run spends past the last level with a baseline (a game whose metadata lists fewer levels than it
 * has, as bt33) are left out of the run, its game's sum and the card's total. §5 counts every action.
 */
import type { Scorecard } from '../../protocol/index.ts';
import { scoredAgainstBaselines } from '../scoring.ts';

/** The card with its runs' actions, their games' sums and its total as the toolkit counts them. */
export function withToolkitRunActions(card: Scorecard): Scorecard {
  for (const environment of card.environments) {
    for (const run of environment.runs) if (scoredAgainstBaselines(run)) run.actions = sumOf(run.level_actions);
    environment.actions = sumOf(environment.runs.map((run) => run.actions));
  }
  card.total_actions = sumOf(card.environments.map((environment) => environment.actions));
  return card;
}

const sumOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
