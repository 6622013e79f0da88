/**
 * The command bodies of docs/protocol.md §2, validated. Almost every body a runner sends is well formed and small,
 * so those are recognised by hand and come out as zod would give them; anything else (a missing or
 * wrong field, reasoning to size up) goes through the zod schema, which alone words the errors. zod on
 * every action was a twentieth of an in-process action.
 */
import { CLICK_ACTION_ID, clickActionRequestSchema, isCoordinate, parseRequest, resetRequestSchema, simpleActionRequestSchema } from '../protocol/index.ts';

export type CommandBody = { game_id: string; guid?: string | null; card_id?: string | null; reasoning?: unknown; x?: number; y?: number };

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function plainObject(body: unknown): Record<string, unknown> | undefined {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** A RESET body: game_id, and card_id and guid each absent, null or an id. */
export function resetRequest(body: unknown): CommandBody {
  const fields = plainObject(body);
  if (fields !== undefined && isId(fields.game_id) && fields.reasoning === undefined) {
    const { game_id, card_id, guid } = fields;
    if ((card_id == null || isId(card_id)) && (guid == null || isId(guid))) {
      const request: CommandBody = { game_id };
      if (card_id !== undefined) request.card_id = card_id;
      if (guid !== undefined) request.guid = guid;
      return request;
    }
  }
  return parseRequest(resetRequestSchema, body);
}

/** An ACTION1..7 body: game_id and guid, and x and y for ACTION6. */
export function actionRequest(actionId: number, body: unknown): CommandBody {
  const fields = plainObject(body);
  if (fields !== undefined && isId(fields.game_id) && isId(fields.guid) && fields.reasoning === undefined) {
    if (actionId !== CLICK_ACTION_ID) return { game_id: fields.game_id, guid: fields.guid };
    if (isCoordinate(fields.x) && isCoordinate(fields.y)) return { game_id: fields.game_id, guid: fields.guid, x: fields.x, y: fields.y };
  }
  return parseRequest(actionId === CLICK_ACTION_ID ? clickActionRequestSchema : simpleActionRequestSchema, body);
}
