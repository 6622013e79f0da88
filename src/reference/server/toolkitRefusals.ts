/**
 * The service's refusals in the official toolkit server's own words (toolkit 0.9.8's arc_agi/api.py,
 * docs/protocol.md §7a): the same situation, the sentence that server writes, with the values it puts in
 * it (the game_id and guid as sent, the key as sent or its "1234" when none was). Status and code are
 * the toolkit's too. The service itself and the arcbench dialect keep their own, clearer sentences; a
 * refusal the toolkit has no sentence for (it fails with a 500 there, or takes the request) keeps
 * arcbench's. test/server-toolkit-official-refusals.test.ts holds each one to the official server's answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../protocol/index.ts';
import { API_KEY_HEADER } from './apiKey.ts';
import { sendApiError } from './errorMapping.ts';
import { pythonJsonBytes, pythonText } from './pythonWording.ts';

/** What the toolkit answers: its status, and its body (`{error, message}`, or once `{error}` alone). */
interface ToolkitRefusal {
  status: number;
  body: { error: string; message?: string };
}

type Body = Record<string, unknown>;

/** The statuses api.py refuses with; any other (a limit of arcbench's, a fault) keeps arcbench's answer. */
const TOOLKIT_REFUSAL_STATUSES = new Set([400, 403, 404, 409]);
/** The key the toolkit's server assumes when a request has none. */
const TOOLKIT_DEFAULT_KEY = '1234';
/** The toolkit measures `opaque` as compact JSON with every non-ASCII character escaped (Python's json.dumps). */
const MAX_OPAQUE_BYTES = 16 * 1024;

/** Answers `error` as the toolkit's server answers the same request; `serviceKey` is the key the service was asked with. */
export function sendToolkitRefusal(reply: FastifyReply, error: ApiError, serviceKey: string | undefined): FastifyReply {
  const answer = toolkitRefusal(error, reply.request, serviceKey);
  if (answer === undefined) return sendApiError(reply, error);
  return send(reply, answer);
}

/** The toolkit's answer to a read of a card it does not hold. */
export function sendCardNotFound(reply: FastifyReply, cardId: string): FastifyReply {
  return send(reply, cardNotFound(cardId));
}

const cardNotFound = (cardId: string) => refusal(404, 'SERVER_ERROR', `card_id \`${cardId}\` not found`);

function send(reply: FastifyReply, answer: ToolkitRefusal): FastifyReply {
  return reply.code(answer.status).type('application/json').send(answer.body);
}

function toolkitRefusal(error: ApiError, request: FastifyRequest, serviceKey: string | undefined): ToolkitRefusal | undefined {
  if (!TOOLKIT_REFUSAL_STATUSES.has(error.status)) return undefined;
  const route = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string>;
  if (route === '/api/games/:game_id' && error.status === 404) return refusal(404, 'SERVER_ERROR', `game ${params.game_id} not found`);
  if (route === '/api/scorecard/:card_id' || route === '/api/scorecard/:card_id/:game_id') return cardReadRefusal(error, params.card_id ?? '');
  if (route === '/api/scorecard/open') return openRefusal(error);
  if (route === '/api/scorecard/close') return closeRefusal(error, request.body);
  if (route.startsWith('/api/cmd/')) return commandRefusal(error, request, route.slice('/api/cmd/'.length), serviceKey);
  return undefined;
}

function refusal(status: number, code: string, message: string): ToolkitRefusal {
  return { status, body: { error: code, message } };
}

function cardReadRefusal(error: ApiError, cardId: string): ToolkitRefusal | undefined {
  if (error.status === 404) return cardNotFound(cardId);
  if (error.status === 403) return refusal(403, 'SERVER_ERROR', 'cannot get scorecard that is in competition mode');
  return undefined;
}

function openRefusal(error: ApiError): ToolkitRefusal | undefined {
  if (error.status === 409) return refusal(409, 'SERVER_ERROR', 'cannot open multiple scorecards in competition mode');
  return undefined;
}

/**
 * Whether the toolkit refuses the open's `opaque` as too large. It counts every character beyond ASCII as
 * its 6-byte escape, so it refuses some that the service, which counts UTF-8, takes: the dialect asks first.
 */
export function exceedsToolkitOpaqueLimit(body: object): boolean {
  return pythonJsonBytes((body as Body).opaque) > MAX_OPAQUE_BYTES;
}

/** Its "8 KB" is a slip of its own (the limit it checks is 16 KiB); like its refusal of a body that is not an object, it has no code. */
export function sendOpaqueRefusal(reply: FastifyReply): FastifyReply {
  return send(reply, { status: 400, body: { error: 'opaque exceeds 8 KB limit' } });
}

function closeRefusal(error: ApiError, body: unknown): ToolkitRefusal | undefined {
  if (!isObject(body) || !('card_id' in body)) return refusal(400, 'VALIDATION_ERROR', 'missing `card_id` in action data');
  const cardId = pythonText(body.card_id);
  // The toolkit looks any card_id up, and finds none that is not a string, nor a card it closed (it drops those).
  if (cardId !== undefined && (error.status === 400 || error.status === 404)) return refusal(404, 'VALIDATION_ERROR', `scorecard ${cardId} not found`);
  return undefined;
}

/** POST /api/cmd/{action}, in the order api.py's cmd() checks the request. */
function commandRefusal(error: ApiError, request: FastifyRequest, action: string, serviceKey: string | undefined): ToolkitRefusal | undefined {
  const body = request.body;
  if (!isObject(body) || !('game_id' in body)) return refusal(400, 'VALIDATION_ERROR', 'missing `game_id` in action data');
  // Its own sentence is a template it forgot to fill in: "{e}}" is what a client reads.
  if (!fitsToolkitActionData(action, body)) return refusal(400, 'VALIDATION_ERROR', '{e}}');
  const gameId = body.game_id as string;
  if (request.backend.isSessionOfAnotherKey(serviceKey, body.guid)) {
    return refusal(400, 'VALIDATION_ERROR', `game ${gameId} with guid ${pythonText(body.guid)} does not match API key ${keyAsSent(request)}`);
  }
  if (error.code === 'GAME_NOT_STARTED_ERROR')
    return refusal(400, 'GAME_NOT_STARTED_ERROR', `game ${gameId} is available but has not been started, send RESET to begin playing`);
  if (action !== 'RESET' && !body.guid && startsSession(request, body, serviceKey))
    return refusal(400, 'VALIDATION_ERROR', 'missing `guid` for any action other than RESET');
  if (error.status === 400 && (error.code === 'SERVER_ERROR' || typeof body.guid !== 'string')) return refusal(400, 'SERVER_ERROR', `game ${gameId} not found`);
  return undefined;
}

/**
 * Whether the toolkit's action model takes the body: game_id a string, and for ACTION6 x and y, when
 * sent, integers 0..63 (pydantic also takes an integral float or a numeric string there; arcbench does not).
 */
function fitsToolkitActionData(action: string, body: Body): boolean {
  if (typeof body.game_id !== 'string') return false;
  if (action !== 'ACTION6') return true;
  return [body.x, body.y].every((value) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 63));
}

/**
 * Whether the toolkit would have made a session of the game for the request's card (and then refused it for
 * want of a guid): the card is the key's and open, and the game is one it serves.
 */
function startsSession(request: FastifyRequest, body: Body, key: string | undefined): boolean {
  if (typeof body.card_id !== 'string' || body.card_id === '') return false;
  try {
    request.backend.getGame(key, body.game_id as string);
    return request.backend.getRunCounts(key, body.card_id).isOpen;
  } catch (error) {
    // An open competition card cannot be read, but it is there. (Where its game was played already the
    // toolkit says "not found"; the service does not tell, so that one case reads "missing guid" here.)
    return (error as ApiError).status === 403;
  }
}

/** The key the toolkit's server names: the header as sent (empty too), its "1234" when there is none. */
function keyAsSent(request: FastifyRequest): string {
  const value = request.headers[API_KEY_HEADER];
  return (Array.isArray(value) ? value[0] : value) ?? TOOLKIT_DEFAULT_KEY;
}

function isObject(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
