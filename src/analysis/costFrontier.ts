/**
 * Score against cost across a run's agents (the arms of a factorial design, or any agents): each one's
 * mean score and its dollars per episode, and which are on the frontier, those no other agent beats on
 * both (as good a score for no more dollars, better on one). Dollars come from the usage agents report;
 * an agent whose calls had no price has no cost, and is left off the frontier with that said.
 */
import { sumUsage } from '../agent/usage.ts';
import type { ScoredEpisode } from './episodeSample.ts';
import { gameMeans } from './gameClustered.ts';

export interface FrontierPoint {
  readonly agent: string;
  /** Mean over games of the game means; null without a scored episode. */
  readonly mean: number | null;
  /** Dollars per episode; null when some call's price is unknown. */
  readonly cost_per_episode: number | null;
  readonly calls: number;
  readonly on_frontier: boolean;
}

export interface CostFrontier {
  readonly points: readonly FrontierPoint[];
  /** What the reader must know: no model called, costs unknown. Null when every agent has a cost. */
  readonly note: string | null;
}

interface Measured {
  readonly agent: string;
  readonly mean: number | null;
  readonly cost_per_episode: number | null;
  readonly calls: number;
}

export function costFrontier(agents: readonly string[], episodes: readonly ScoredEpisode[]): CostFrontier {
  const measured = agents.map((agent) =>
    measure(
      agent,
      episodes.filter((e) => e.agent === agent),
    ),
  );
  const priced = measured.filter((m): m is Measured & { mean: number; cost_per_episode: number } => m.mean !== null && m.cost_per_episode !== null);
  const dominated = (m: Measured & { mean: number; cost_per_episode: number }) =>
    priced.some((o) => o.mean >= m.mean && o.cost_per_episode <= m.cost_per_episode && (o.mean > m.mean || o.cost_per_episode < m.cost_per_episode));
  const onFrontier = new Set(priced.filter((m) => !dominated(m)).map((m) => m.agent));
  return { points: measured.map((m) => ({ ...m, on_frontier: onFrontier.has(m.agent) })), note: frontierNote(measured) };
}

function measure(agent: string, episodes: readonly ScoredEpisode[]): Measured {
  const usage = sumUsage(episodes.flatMap((e) => (e.usage === undefined ? [] : [e.usage])));
  const means = gameMeans(episodes);
  return {
    agent,
    mean: means.length === 0 ? null : means.reduce((sum, v) => sum + v, 0) / means.length,
    cost_per_episode: episodes.length === 0 || usage.cost_usd === null ? null : usage.cost_usd / episodes.length,
    calls: usage.calls,
  };
}

function frontierNote(measured: readonly Measured[]): string | null {
  if (measured.every((m) => m.calls === 0)) {
    return 'No cost recorded: no agent called a model, so every one cost $0 and the frontier is simply the best mean score.';
  }
  const unknown = measured.filter((m) => m.cost_per_episode === null).map((m) => m.agent);
  if (unknown.length === measured.length) return 'No cost recorded: no agent gave prices for its calls (set params.pricing), so there is no frontier.';
  if (unknown.length > 0) return `Cost unknown for ${unknown.join(', ')} (no prices for their calls): left off the frontier.`;
  return null;
}
