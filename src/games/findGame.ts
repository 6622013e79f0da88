/** Looks a catalog game up by full id or bare slug (SPEC §1: the bare slug names the current version). */
import type { PuzzleGame } from './engine/puzzleGame.ts';
import { puzzleCatalog } from './puzzleCatalog.ts';

export function findPuzzleGame(idOrSlug: string): PuzzleGame<unknown, unknown> {
  const wanted = idOrSlug.trim().toLowerCase();
  const games = puzzleCatalog();
  const game = games.find((candidate) => candidate.info.id === wanted || candidate.info.slug === wanted);
  if (game === undefined) {
    const known = games.map((candidate) => `${candidate.info.slug} (${candidate.info.title})`).join(', ');
    throw new Error(`no game "${idOrSlug}"; known: ${known}. Run \`arcbench games\` to list them.`);
  }
  return game;
}

/** A 1-based level number from the command line, checked against the game. */
export function levelIndexOf(game: PuzzleGame<unknown, unknown>, levelNumber: string | number): number {
  const number = Number(levelNumber);
  if (!Number.isInteger(number) || number < 1 || number > game.levels.length) {
    throw new Error(`${game.info.slug} has levels 1 to ${game.levels.length}; "${levelNumber}" is not one of them`);
  }
  return number - 1;
}
