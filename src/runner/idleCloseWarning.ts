/**
 * A card the service closes while its only episode waits on the agent ends that episode, and the run
 * learns it only at the next action. The hosted service closes a card after 15 minutes without an
 * action; a model call with long timeouts and retries can outlast that. `run` says so once, at the
 * start, for each agent whose one decision can take longer than that while no other episode of its
 * card plays (which would keep the card alive).
 */
import type { Experiment } from './config/loader.ts';
import { HOSTED_IDLE_CLOSE_MINUTES } from '../protocol/index.ts';

interface AgentLimits {
  readonly label: string;
  readonly params: unknown;
}

/** The longest one decision of the agent can take, in seconds, from its params' request timeout and retries (the llm agent's names). */
function longestDecisionSeconds(params: unknown, episodeSeconds: number | undefined): number | undefined {
  const { request_timeout_seconds: timeout, max_retries: retries } = (params ?? {}) as { request_timeout_seconds?: unknown; max_retries?: unknown };
  if (typeof timeout !== 'number') return undefined;
  const tries = 1 + (typeof retries === 'number' ? retries : 0);
  return Math.min(timeout * tries, episodeSeconds ?? Infinity);
}

/** One sentence per agent whose card can close under it while it thinks; empty when none can. */
export function idleCloseWarnings(
  agents: readonly AgentLimits[],
  config: Pick<Experiment['config'], 'target' | 'concurrency' | 'budgets'>,
  episodesOf: (label: string) => number,
): string[] {
  // The in-process service's cards live as long as the run: nothing closes them under an agent.
  if (config.target === 'reference') return [];
  const idleSeconds = HOSTED_IDLE_CLOSE_MINUTES * 60;
  const warnings: string[] = [];
  for (const agent of agents) {
    const longest = longestDecisionSeconds(agent.params, config.budgets.episode_seconds);
    if (longest === undefined || longest <= idleSeconds) continue;
    const together = Math.min(config.concurrency, episodesOf(agent.label));
    if (together > 1) continue;
    warnings.push(
      `agent "${agent.label}": one decision can take up to ${Math.round(longest / 60)} minutes (params.request_timeout_seconds × (1 + max_retries)), ` +
        `longer than the ${HOSTED_IDLE_CLOSE_MINUTES} minutes without an action after which the hosted service closes a card, and no other episode of its card plays meanwhile; ` +
        'lower request_timeout_seconds or max_retries, set budgets.episode_seconds, or play more episodes at once (concurrency)',
    );
  }
  return warnings;
}
