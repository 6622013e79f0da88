/**
 * How the server speaks. `arcbench` is the full API of docs/protocol.md §2–§6. `toolkit` speaks it as the
 * official toolkit's own reference server does (docs/protocol.md §7a, toolkitDialect.ts), so a client can be
 * tested against that server without it, as `--backends` emulates the hosted balancer. What the service
 * does is the same in both: the same games, sessions, counts and scores; only what a client sees of
 * them differs (answers, error codes, keys, cookies).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionName, FrameResponse, GameDescriptor, Scorecard } from '../../protocol/index.ts';
import type { CompetitionRules } from '../competitionRules.ts';
import type { ReferenceService } from '../referenceService.ts';
import { apiKeyOf } from './apiKey.ts';
import { type RefusalSender, type RequestErrorSender, sendApiError, sendError } from './errorMapping.ts';
import { toolkitDialect } from './toolkitDialect.ts';

export const DIALECTS = ['arcbench', 'toolkit'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** The dialect's side of every endpoint: each calls the request's backend and words its answer. */
export interface DialectBehaviour {
  /** Whose rules the services behind the server play competition cards by (competitionRules.ts). */
  competitionRules: CompetitionRules;
  /** Whether a body sent as `application/<anything>+json` is read as JSON (Flask's get_json does), not refused with 415. */
  readsStructuredJsonTypes: boolean;
  /** The key the service is asked with. */
  apiKey(request: FastifyRequest): string | undefined;
  /** Whether answers carry the balancer's affinity cookies, with this many backends behind the server. */
  issuesAffinityCookies(backendCount: number): boolean;
  healthcheck(reply: FastifyReply): unknown;
  /** Installs what the dialect words differently in every answer (the toolkit's JSON), if anything. */
  installWording(app: FastifyInstance): void;
  /** Whether `/scorecards/{card}` serves the card's page (scorecardPage.ts). */
  servesScorecardPage: boolean;
  /** Answers a request the routes could not take: a body that is not JSON, an unknown path, a wrong method. */
  requestError: RequestErrorSender;
  /** Answers a refusal of the service (an ApiError it threw), in the dialect's words. */
  refusal: RefusalSender;
  /** GET /api/games: the backend's descriptors as the dialect words them. */
  games(backend: ReferenceService, key: string | undefined): unknown;
  /** GET /api/games/{game}. */
  game(descriptor: GameDescriptor, backend: ReferenceService): unknown;
  /** POST /api/scorecard/open. */
  openCard(backend: ReferenceService, key: string | undefined, body: unknown, reply: FastifyReply): unknown;
  /** GET /api/scorecard/{card}. */
  readCard(backend: ReferenceService, key: string | undefined, cardId: string): unknown;
  /** GET /api/scorecard/{card}/{game}. */
  readGameCard(backend: ReferenceService, key: string | undefined, cardId: string, gameId: string): unknown;
  /** The answer of POST /api/scorecard/close: `card` as the backend closed it for the key. */
  closedCard(card: Scorecard, backend: ReferenceService, key: string | undefined): unknown;
  /** POST /api/cmd/{action}: at once for our own games, a promise for a hosted one. */
  command(backend: ReferenceService, key: string | undefined, action: ActionName, body: unknown): FrameResponse | Promise<FrameResponse>;
}

const arcbenchDialect: DialectBehaviour = {
  competitionRules: 'hosted',
  readsStructuredJsonTypes: false,
  apiKey: apiKeyOf,
  issuesAffinityCookies: () => true,
  healthcheck: () => ({ status: 'ok' }),
  installWording: () => {},
  servesScorecardPage: true,
  requestError: sendError,
  refusal: sendApiError,
  games: (backend, key) => backend.listGames(key),
  game: (descriptor) => descriptor,
  openCard: (backend, key, body) => backend.openScorecard(key, body),
  readCard: (backend, key, cardId) => backend.getScorecard(key, cardId),
  readGameCard: (backend, key, cardId, gameId) => backend.getScorecard(key, cardId, gameId),
  closedCard: (card) => card,
  command: (backend, key, action, body) => backend.commandOrPromise(key, action, body),
};

/**
 * The competition rules of a server of `dialect`; `competitionServer`: the toolkit's server started in
 * competition mode, as Kaggle's gateway runs it (the toolkit dialect only).
 */
export function competitionRulesOf(dialect: Dialect = 'arcbench', competitionServer = false): CompetitionRules {
  const rules = dialectBehaviour(dialect).competitionRules;
  if (!competitionServer) return rules;
  if (rules !== 'toolkit') throw new RangeError(`competition mode for the whole server is the toolkit's; use it with the toolkit dialect, not ${dialect}`);
  return 'toolkit-competition-server';
}

export function dialectBehaviour(dialect: Dialect = 'arcbench'): DialectBehaviour {
  if (dialect === 'arcbench') return arcbenchDialect;
  if (dialect === 'toolkit') return toolkitDialect;
  throw new RangeError(`dialect must be one of ${DIALECTS.join(', ')}, got ${String(dialect)}`);
}
