/** A solver's board move as the action a player sends: clicks aim at the centre of the cell. */
import { CLICK_ACTION_ID } from '../../protocol/index.ts';
import type { GameInput } from '../types.ts';
import type { Move } from './definition.ts';
import { displayOfCell, type BoardLayout } from './layout.ts';

export function gameInputOf(layout: BoardLayout, move: Move): GameInput {
  if (move.id !== CLICK_ACTION_ID) return { id: move.id };
  return { id: CLICK_ACTION_ID, ...displayOfCell(layout, move.x, move.y) };
}
