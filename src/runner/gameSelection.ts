/** Which games an experiment plays: `all`, or ids, slug prefixes and input tags. */
import type { GameDescriptor } from '../protocol/index.ts';

export interface GameSelection {
  /** Sorted by game id, each game once. */
  games: GameDescriptor[];
  /** Selectors that matched nothing, with their index in the `games` list. */
  unmatched: Array<{ index: number; selector: string }>;
}

function matches(selector: string, game: GameDescriptor): boolean {
  return game.game_id === selector || game.game_id.startsWith(selector) || (game.tags ?? []).includes(selector);
}

export function selectGames(selection: 'all' | readonly string[], available: readonly GameDescriptor[]): GameSelection {
  const sorted = [...available].sort((a, b) => (a.game_id < b.game_id ? -1 : a.game_id > b.game_id ? 1 : 0));
  if (selection === 'all') return { games: sorted, unmatched: [] };
  const chosen = new Set<GameDescriptor>();
  const unmatched: GameSelection['unmatched'] = [];
  selection.forEach((selector, index) => {
    const hits = sorted.filter((game) => matches(selector, game));
    if (hits.length === 0) unmatched.push({ index, selector });
    for (const game of hits) chosen.add(game);
  });
  return { games: sorted.filter((game) => chosen.has(game)), unmatched };
}
