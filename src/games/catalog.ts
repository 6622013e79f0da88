/** The catalog of original games the reference service offers. Filled by the game-catalog work. */
import type { Game } from './types.ts';

export function gameCatalog(): readonly Game[] {
  return [];
}
