/**
 * A run's factorial results, as run.json and the report keep them: every design's main effects
 * (factorEffects.ts) and the score-against-cost frontier across its arms (costFrontier.ts). Null for a
 * run without arms.
 */
import { type CostFrontier, costFrontier } from './costFrontier.ts';
import type { ScoredEpisode } from './episodeSample.ts';
import { type ArmAgent, type FactorialDesign, factorialDesigns } from './factorEffects.ts';

export interface FactorialSummary {
  readonly designs: readonly FactorialDesign[];
  readonly frontier: CostFrontier;
}

export function factorialSummary(agents: readonly ArmAgent[], episodes: readonly ScoredEpisode[]): FactorialSummary | null {
  const arms = agents.filter((a) => a.arm !== undefined).map((a) => a.label);
  if (arms.length === 0) return null;
  return { designs: factorialDesigns(agents, episodes), frontier: costFrontier(arms, episodes) };
}
