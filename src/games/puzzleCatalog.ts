/**
 * Every original game with its engine-level details (definition, parsed levels), in catalog order.
 * `gameCatalog()` exposes the same games through the service's plain `Game` interface.
 */
import { crateYard } from './crat/rules.ts';
import { frostSlide } from './slid/rules.ts';
import { lampGrid } from './lamp/rules.ts';
import { keyKeeper } from './keys/rules.ts';
import { paintSpill } from './flod/rules.ts';
import { plankWalk } from './plnk/rules.ts';
import { puzzleGame, type PuzzleGame } from './engine/puzzleGame.ts';

// Built once: parsing levels and hashing ids is cheap, but callers ask for the catalog often.
let catalog: readonly PuzzleGame<unknown, unknown>[] | undefined;

export function puzzleCatalog(): readonly PuzzleGame<unknown, unknown>[] {
  catalog ??= [
    puzzleGame(crateYard),
    puzzleGame(frostSlide),
    puzzleGame(lampGrid),
    puzzleGame(keyKeeper),
    puzzleGame(paintSpill),
    puzzleGame(plankWalk),
  ] as unknown as readonly PuzzleGame<unknown, unknown>[];
  return catalog;
}
