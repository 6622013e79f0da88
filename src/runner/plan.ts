/**
 * The experiment's matrix: every (agent, game, episode) with its seed, in the order the scheduler
 * starts them. Episodes are interleaved by index, game and agent so a run cut short by its wall time
 * has covered every agent and game about equally.
 */
import type { GameDescriptor } from '../protocol/index.ts';
import type { Transport } from '../client/transport.ts';
import type { Experiment } from './config/loader.ts';
import { ConfigError } from './config/loader.ts';
import type { EpisodeSpec } from '../episode/runEpisode.ts';
import { selectGames } from './gameSelection.ts';
import { episodeSeed } from '../agent/rng.ts';
import { basename } from 'node:path';
export { repeatOfEpisode } from '../analysis/repeatSpread.ts';
import { type Shard, episodesOfShard } from './shard.ts';

export interface Plan {
  readonly games: readonly GameDescriptor[];
  /** The episodes this run plays: the whole matrix, or one shard's part of it. */
  /** Every game the service offers (competition cards score the unplayed ones 0 at close); default `games`. */
  readonly offered?: readonly GameDescriptor[];
  readonly episodes: readonly EpisodeSpec[];
  /** Set when this run plays one part of the matrix (`--shard i/n`). */
  readonly shard?: Shard;
}

/**
 * Repeat r of episode i is episode index r × episodes + i: keys and seeds stay unique with no new key
 * field, so resume, shards, merge and the worker pool need nothing new, and a plan of one repeat is the
 * plan it always was. Which repeat an index belongs to is `repeatOfEpisode`.
 */
export function planEpisodes(experiment: Experiment, games: readonly GameDescriptor[]): EpisodeSpec[] {
  const { config } = experiment;
  const episodes: EpisodeSpec[] = [];
  for (let index = 0; index < config.episodes * config.repeats; index++) {
    for (const game of games) {
      for (const agent of experiment.agents) {
        episodes.push({ agent, game, index, seed: episodeSeed(config.seed, agent.label, game.game_id, index) });
      }
    }
  }
  return episodes;
}

/** Lists the target's games, applies the experiment's selection, and lays out the episodes (of one shard, when given). */
export async function resolvePlan(experiment: Experiment, transport: Transport, shard?: Shard): Promise<Plan> {
  const available = await transport.listGames();
  const { games, unmatched } = selectGames(experiment.config.games, available);
  const where = basename(experiment.file);
  if (unmatched.length > 0) {
    const known = available.map((g) => g.game_id).join(', ') || '(none)';
    throw new ConfigError(
      unmatched
        .map(({ index, selector }) => `${where}: games[${index}]: "${selector}" matches no game id, slug prefix or tag; games here: ${known}`)
        .join('\n'),
    );
  }
  if (games.length === 0) throw new ConfigError(`${where}: games: the target offers no games`);
  const episodes = planEpisodes(experiment, games);
  if (shard === undefined) return { games, offered: available, episodes };
  return { games, offered: available, episodes: episodesOfShard(episodes, shard), shard };
}
