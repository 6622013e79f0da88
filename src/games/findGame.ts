/** Looks a catalog game up by full id or bare slug (docs/protocol.md §1: the bare slug names the current version). */
import type { PuzzleGame } from './engine/puzzleGame.ts';
import type { GameInfo } from './types.ts';
import { puzzleCatalog } from './puzzleCatalog.ts';

export function findPuzzleGame(idOrSlug: string): PuzzleGame<unknown, unknown> {
  return findGameIn(puzzleCatalog(), idOrSlug, 'arcbench games');
}

/** A game of `games` by full id or bare slug; the error lists the known ones and the command that lists them. */
export function findGameIn<T extends { readonly info: GameInfo }>(games: readonly T[], idOrSlug: string, listCommand: string): T {
  const wanted = idOrSlug.trim().toLowerCase();
  const game = games.find((candidate) => candidate.info.id === wanted || candidate.info.slug === wanted);
  if (game === undefined) {
    const known = games
      .map((candidate) => `${candidate.info.slug} (${candidate.info.title})`)
      .sort()
      .join(', ');
    throw new Error(`no game "${idOrSlug}"; known: ${known}. Run \`${listCommand}\` to list them.`);
  }
  return game;
}

/** The 0-based index of a 1-based level number (parsed by the CLI), checked against the game. */
export function levelIndexOf(game: PuzzleGame<unknown, unknown>, levelNumber: number): number {
  if (!Number.isInteger(levelNumber) || levelNumber < 1 || levelNumber > game.levels.length) {
    throw new Error(`${game.info.slug} has levels 1 to ${game.levels.length}; ${levelNumber} is not one of them`);
  }
  return levelNumber - 1;
}
