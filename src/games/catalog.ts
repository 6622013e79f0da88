/** The catalog of original games the reference service offers, in a fixed order. */
import { puzzleCatalog } from './puzzleCatalog.ts';
import type { Game } from './types.ts';

export function gameCatalog(): readonly Game[] {
  return puzzleCatalog();
}
