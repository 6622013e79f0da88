/**
 * A card the service closes while its only episode waits on the agent ends that episode, and the run
 * learns it only at the next action. The hosted service closes a card after 15 minutes without an
 * action; a model call with long timeouts and retries can outlast that. `run` says so once, at the
 * start, for each agent whose one decision can take longer than that (as the agent says of itself)
 * while no other episode of its card plays (which would keep the card alive).
 */
import { episodeSeconds } from '../episode/budgets.ts';
import type { ResolvedAgent } from './config/loader.ts';
import type { Experiment } from './config/loader.ts';
import { describeAgent } from './agentDescription.ts';
import { HOSTED_IDLE_CLOSE_MINUTES } from '../protocol/index.ts';

/** One sentence per agent whose card can close under it while it thinks; empty when none can. */
export function idleCloseWarnings(
  agents: readonly Pick<ResolvedAgent, 'label' | 'definition' | 'params'>[],
  config: Pick<Experiment['config'], 'target' | 'concurrency' | 'budgets'>,
  episodesOf: (label: string) => number,
): string[] {
  // The in-process service's cards live as long as the run: nothing closes them under an agent.
  if (config.target === 'reference') return [];
  const idleSeconds = HOSTED_IDLE_CLOSE_MINUTES * 60;
  const warnings: string[] = [];
  for (const agent of agents) {
    const { longestDecisionSeconds, shortenDecisionHint } = describeAgent(agent);
    if (longestDecisionSeconds === undefined) continue;
    const longest = Math.min(longestDecisionSeconds, episodeSeconds(config.budgets));
    if (longest <= idleSeconds) continue;
    const together = Math.min(config.concurrency, episodesOf(agent.label));
    if (together > 1) continue;
    const shorten = shortenDecisionHint === undefined ? '' : `${shortenDecisionHint}, `;
    warnings.push(
      `agent "${agent.label}": one decision can take up to ${Math.round(longest / 60)} minutes (as the agent says of itself), ` +
        `longer than the ${HOSTED_IDLE_CLOSE_MINUTES} minutes without an action after which the hosted service closes a card, and no other episode of its card plays meanwhile; ` +
        `${shorten}set budgets.episode_seconds, or play more episodes at once (concurrency)`,
    );
  }
  return warnings;
}
