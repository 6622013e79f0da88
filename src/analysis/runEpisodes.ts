/**
 * A run folder as the analysis sees it (compare, the gate, `run --baseline`): agent labels, each
 * current episode's own score, and the setup run.json records for each label.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import type { RunFolder } from '../runfolder/readRunFolder.ts';
import type { RunReport } from '../runfolder/runReport.ts';
import type { AgentSetup, RunEpisodes, ScoredEpisode } from './episodeSample.ts';
import { ownScore } from './localScoring.ts';
import { repeatOfEpisode } from './repeatSpread.ts';

/**
 * A run as the analysis sees it: agent labels and each current episode's own score, from the log where
 * the run wrote it, else (runs of older versions) scored here with the same code. Episodes whose score
 * is unknown (their game's baselines were) are not scored episodes: they are named in `unscored`.
 */
export function runEpisodesOf(name: string, agents: readonly string[], episodes: readonly EpisodeRecord[], episodesPerRepeat?: number): RunEpisodes {
  const scored: ScoredEpisode[] = [];
  const unscored: Array<{ agent: string; game: string }> = [];
  for (const e of episodes) {
    const score = ownScore(e);
    if (score === null) unscored.push({ agent: e.agent, game: e.game_id });
    else
      scored.push({
        agent: e.agent,
        game: e.game_id,
        episode: e.episode,
        seed: e.seed,
        score,
        ...(episodesPerRepeat === undefined ? {} : { repeat: repeatOfEpisode(e.episode, episodesPerRepeat) }),
        ...(e.usage === undefined ? {} : { usage: e.usage }),
      });
  }
  return { name, agents, episodes: scored, ...(unscored.length === 0 ? {} : { unscored }) };
}

export const runEpisodesOfFolder = (folder: RunFolder, name: string): RunEpisodes => ({
  ...runEpisodesOf(
    name,
    folder.report.agents.map((a) => a.label),
    folder.episodes,
    folder.report.plan.episodes,
  ),
  setups: agentSetups(folder.report),
});

/** Per label, the agent and params run.json records for it. */
export function agentSetups(report: RunReport): Record<string, AgentSetup> {
  return Object.fromEntries(report.agents.map((a) => [a.label, { use: a.use, params: a.params }]));
}
