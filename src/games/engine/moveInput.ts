/** A solver's board move as the action a player sends: clicks aim at the centre of the cell. */
import type { GameInput } from '../types.ts';
import type { Move } from './definition.ts';
import { displayOfCell, type BoardLayout } from './layout.ts';

export function gameInputOf(layout: BoardLayout, move: Move): GameInput {
  if (move.id !== 6) return { id: move.id };
  return { id: 6, ...displayOfCell(layout, move.x, move.y) };
}
