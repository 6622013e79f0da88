/**
 * What the analysis needs of a run: its agent labels and, per finished episode, the key that names it
 * (agent label, game, episode index), its seed, its own score and its model usage. The runner turns its
 * run folders into this; the analysis never reads files.
 */
import type { UsageTotals } from '../agent/usage.ts';

export interface ScoredEpisode {
  readonly agent: string;
  readonly game: string;
  readonly episode: number;
  readonly seed: number;
  /** The repeat (full draw of the plan) it belongs to; absent means 0 (runs of one repeat). */
  readonly repeat?: number;
  /** The episode's own score: its best run, scored with the service's scoring code (0..115). */
  readonly score: number;
  /** Model usage the agent reported; absent for agents and runs without it. */
  readonly usage?: UsageTotals;
}

/** What a label stood for in a run: the agent it used and its params (run.json's agents[].use and params). */
export interface AgentSetup {
  readonly use: string;
  readonly params: unknown;
}

export interface RunEpisodes {
  /** How the run is named in output: its folder, usually. */
  readonly name: string;
  /** Agent labels in the run's order (an agent may have no finished episode). */
  readonly agents: readonly string[];
  readonly episodes: readonly ScoredEpisode[];
  /** Finished episodes whose score is unknown (the service gave no level baselines for their game): not in `episodes`. */
  readonly unscored?: ReadonlyArray<{ readonly agent: string; readonly game: string }>;
  /** Per label, the agent behind it, when known: a comparison warns when it changed between the runs. */
  readonly setups?: Readonly<Record<string, AgentSetup>>;
}

/** The row label of an agent's total over its games. Game ids never take this form (slug-hex). */
export const TOTAL = 'total';

/** Episodes grouped by agent, then by game (games sorted by id). */
export function episodesByAgentAndGame(episodes: readonly ScoredEpisode[]): Map<string, Map<string, ScoredEpisode[]>> {
  const byAgent = new Map<string, Map<string, ScoredEpisode[]>>();
  for (const episode of episodes) {
    let byGame = byAgent.get(episode.agent);
    if (byGame === undefined) {
      byGame = new Map();
      byAgent.set(episode.agent, byGame);
    }
    let list = byGame.get(episode.game);
    if (list === undefined) {
      list = [];
      byGame.set(episode.game, list);
    }
    list.push(episode);
  }
  for (const [agent, byGame] of byAgent) {
    const sorted = [...byGame.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [, list] of sorted) list.sort((a, b) => a.episode - b.episode);
    byAgent.set(agent, new Map(sorted));
  }
  return byAgent;
}

/**
 * One agent of a run under another label, alone: so that two agents (of one run or of two) compare as
 * if they were one agent in two runs. Their episode seeds differ, so they compare unpaired; their setups
 * are left out, since two different agents are the point.
 */
export function oneAgentAs(run: RunEpisodes, agent: string, label: string): RunEpisodes {
  return {
    name: `${run.name} (${agent})`,
    agents: run.agents.includes(agent) ? [label] : [],
    episodes: run.episodes.filter((e) => e.agent === agent).map((e) => ({ ...e, agent: label })),
  };
}
