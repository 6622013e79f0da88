/**
 * The endpoints of docs/protocol.md §2, each a one-line call into the request's backend service: the service
 * validates and throws ApiError, errorMapping.ts turns that into the answer. Frame responses go out as
 * the bytes of the hand-written encoder, never through JSON.stringify. Every path answers the methods
 * it does not take with 405.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ACTION_NAMES, encodeFrameResponse, type FrameResponse } from '../../protocol/index.ts';
import type { DialectBehaviour } from './dialect.ts';
import { methodNotAllowed } from './errorMapping.ts';

export const HEALTHCHECK_PATH = '/api/healthcheck';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

// Methods a wrong-method request may use and still get a helpful 405 instead of a 404.
const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** `dialect`: how the server speaks (dialect.ts): its keys, answers and refusals. */
export function installRoutes(app: FastifyInstance, dialect: DialectBehaviour): void {
  const route = (method: 'GET' | 'POST', url: string, handler: Handler) => {
    app.route({ method, url, handler });
    // GET routes answer HEAD too (fastify exposes it), so HEAD is not "another" method for them.
    const others = ALL_METHODS.filter((m) => m !== method && !(method === 'GET' && m === 'HEAD'));
    app.route({ method: [...others], url, handler: methodNotAllowed([method], dialect.requestError) });
  };
  // The path parameters of our routes; fastify sets each one a route's path names.
  const params = (request: FastifyRequest) => request.params as Record<'game_id' | 'card_id', string>;

  const keyOf = (request: FastifyRequest) => dialect.apiKey(request);

  // A health probe carries no key and touches no backend state.
  route('GET', HEALTHCHECK_PATH, async (_request, reply) => dialect.healthcheck(reply));

  // Needs no key (the official toolkit asks for one when it has none); a static path wins over :game_id.
  route('GET', '/api/games/anonkey', async (request) => request.backend.anonymousKey());
  route('GET', '/api/games', async (request) => dialect.games(request.backend, keyOf(request)));
  route('GET', '/api/games/:game_id', async (request) => dialect.game(request.backend.getGame(keyOf(request), params(request).game_id), request.backend));

  route('POST', '/api/scorecard/open', async (request, reply) => dialect.openCard(request.backend, keyOf(request), request.body, reply));
  route('POST', '/api/scorecard/close', async (request) =>
    dialect.closedCard(request.backend.closeScorecard(keyOf(request), request.body), request.backend, keyOf(request)),
  );
  route('GET', '/api/scorecard/:card_id', async (request) => dialect.readCard(request.backend, keyOf(request), params(request).card_id));
  route('GET', '/api/scorecard/:card_id/:game_id', async (request) => {
    const { card_id, game_id } = params(request);
    return dialect.readGameCard(request.backend, keyOf(request), card_id, game_id);
  });

  // The game commands are the hot path, and for our own games all of it is synchronous: a plain handler
  // that sends spares the promise fastify would otherwise wait on. (A throw still becomes the error
  // answer.) A hosted game answers later: its promise is the handler's, so a rejection is answered too.
  for (const action of ACTION_NAMES) {
    route('POST', `/api/cmd/${action}`, (request, reply) => {
      const answer = dialect.command(request.backend, keyOf(request), action, request.body);
      const send = (response: FrameResponse) => reply.type('application/json; charset=utf-8').send(encodeFrameResponse(response));
      if (answer instanceof Promise) return answer.then(send);
      send(answer);
    });
  }
}
