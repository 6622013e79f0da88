/**
 * The end of a run for its agents: each definition releases what it kept between episodes (a Python
 * agent's fork server), so no process of the run outlives it. One that fails to close is no reason to
 * lose the run's results: it is told to `warn` and the others still close.
 */
import type { ResolvedAgent } from './defineAgent.ts';

export async function closeAgents(agents: readonly ResolvedAgent[], warn: (sentence: string) => void): Promise<void> {
  const definitions = new Set(agents.map((agent) => agent.definition));
  await Promise.all(
    [...definitions].map(async (definition) => {
      try {
        await definition.close?.();
      } catch (error) {
        warn(`agent ${definition.name} did not close: ${(error as Error).message}`);
      }
    }),
  );
}
