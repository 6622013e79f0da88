/**
 * Level baselines a run learns only when its cards close. A service whose game list has none gives them
 * in its scorecard's run entries (docs/protocol.md §7a), and in competition mode an open card cannot be
 * read: then the close answer is the first place that has them. Its episodes were recorded with their
 * baselines unknown; every reader of the run fills them in from the closed cards here, so local scores
 * are computed and compared as for any other run.
 */
import { isSameGame } from '../protocol/index.ts';
import type { GameDescriptor, ScorecardAnswer } from '../protocol/index.ts';
import type { EpisodeRecord } from './episodeRecord.ts';

/**
 * `episodes` with the baselines of each game whose episodes did not know them, where a closed card of
 * the same agent has them; episodes already knowing theirs are returned as they are.
 */
export function withClosedCardBaselines(
  episodes: readonly EpisodeRecord[],
  cards: readonly { agent: string; scorecard: ScorecardAnswer | null }[],
): EpisodeRecord[] {
  return episodes.map((episode) => {
    if (episode.baselines_known !== false) return episode;
    const baselines = cards
      .filter((card) => card.agent === episode.agent)
      .map((card) => baselinesIn(card.scorecard, episode.game_id))
      .find((found) => found !== undefined);
    // Its own score was not computed without them; readers score it again from its runs.
    return baselines === undefined ? episode : { ...episode, baselines, baselines_known: true, score: null };
  });
}

/**
 * `game` with the baselines a closed card of `agent` gives, where its descriptor has none: a game no
 * episode played enters a competition card at close, and the close answer scores it against them.
 */
export function gameWithClosedCardBaselines(
  game: GameDescriptor,
  agent: string | undefined,
  cards: readonly { agent: string; scorecard: ScorecardAnswer | null }[],
): GameDescriptor {
  if (game.baseline_actions !== undefined) return game;
  const baselines = cards
    .filter((card) => card.agent === agent)
    .map((card) => baselinesIn(card.scorecard, game.game_id))
    .find((found) => found !== undefined);
  return baselines === undefined ? game : { ...game, baseline_actions: baselines };
}

/**
 * The baselines of the first run entry of `gameId` that carries usable ones. The toolkit's server sends
 * -1 for every level of a run that completed more levels than its game has baselines: those are none.
 */
export function baselinesIn(card: ScorecardAnswer | null, gameId: string): number[] | undefined {
  for (const environment of card?.environments ?? []) {
    if (!isSameGame(gameId, environment.id)) continue;
    for (const run of environment.runs ?? []) {
      const baselines = run.level_baseline_actions;
      if (baselines !== undefined && baselines.length > 0 && baselines.every((baseline) => baseline >= 0)) return [...baselines];
    }
  }
  return undefined;
}
