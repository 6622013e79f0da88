/**
 * The command name and request body of a RESET or game action (docs/protocol.md §2), shared by both transports so
 * they send byte-for-byte the same requests to the same validation.
 */
import type { ActionName, CommandRequest, GameAction } from '../protocol/index.ts';
import { actionName, CLICK_ACTION_ID } from '../protocol/index.ts';

export interface Command {
  name: ActionName;
  body: CommandRequest;
}

/** RESET: `card_id` is always sent, since a new session needs it and a later RESET may carry it. */
export function resetCommand(cardId: string, gameId: string, guid?: string): Command {
  const body: Record<string, unknown> = { game_id: gameId, card_id: cardId };
  if (guid !== undefined) body.guid = guid;
  return { name: 'RESET', body: body as CommandRequest };
}

/** ACTION1..7: x and y only for ACTION6; `reasoning` only when the agent gave one. */
export function actionCommand(gameId: string, guid: string, action: GameAction): Command {
  const body: Record<string, unknown> = { game_id: gameId, guid };
  if (action.id === CLICK_ACTION_ID) {
    body.x = action.x;
    body.y = action.y;
  }
  if (action.reasoning !== undefined) body.reasoning = action.reasoning;
  return { name: actionName(action.id), body: body as CommandRequest };
}
