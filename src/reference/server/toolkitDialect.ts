/**
 * The official toolkit's reference server as a client sees it (docs/protocol.md §7a, measured against toolkit
 * 0.9.8; Kaggle's competition gateway is that server): games without baselines, in the order found, named by their
 * metadata's tags and date (toolkitGames.ts); cards and run entries without the fields it does not keep,
 * scored as its scorecard code counts (toolkitRunActions.ts, toolkitTagScores.ts); a per-game scorecard of another shape (toolkitGameCard.ts);
 * closed cards gone, and no card pages; frames that always say `full_reset: false` and always carry a
 * reasoning; JSON as Flask writes it (toolkitJson.ts); any key, none too; no cookies from a single
 * backend; refusals in its words, codes and shapes (toolkitRefusals.ts); its framework's HTML pages for
 * requests it cannot route or parse (toolkitErrorPages.ts) and upper-case status lines (toolkitStatusLine.ts).
 * test/server-toolkit-official.test.ts holds it to the official server's own answers.
 */
import { ApiError, type FrameResponse, type Scorecard } from '../../protocol/index.ts';
import { randomUUID } from 'node:crypto';
import { isRepeatedAnswer } from '../competitionRules.ts';
import type { ReferenceService } from '../referenceService.ts';
import { apiKeyOf } from './apiKey.ts';
import type { DialectBehaviour } from './dialect.ts';
import { toolkitErrorPage } from './toolkitErrorPages.ts';
import { toolkitGameCard } from './toolkitGameCard.ts';
import { toolkitDescriptor, withToolkitTagScores } from './toolkitGames.ts';
import { withToolkitRunActions } from './toolkitRunActions.ts';
import { installToolkitJson } from './toolkitJson.ts';
import { exceedsToolkitOpaqueLimit, sendOpaqueRefusal, sendToolkitRefusal } from './toolkitRefusals.ts';
import { installToolkitStatusLine } from './toolkitStatusLine.ts';

/** Who a request without a key (or with an empty one) is served as: the toolkit accepts those. */
export const TOOLKIT_STAND_IN_KEY = 'toolkit-request-without-key';

const CARD_FIELDS_LEFT_OUT = ['open_at', 'last_update', 'published_at', 'user_id', 'user_name'] as const;
const RUN_FIELDS_LEFT_OUT = ['id', 'number_of_levels', 'number_of_environments'] as const;

export const toolkitDialect: DialectBehaviour = {
  competitionRules: 'toolkit',
  readsStructuredJsonTypes: true,
  apiKey: (request) => apiKeyOf(request) || TOOLKIT_STAND_IN_KEY,
  issuesAffinityCookies: (backendCount) => backendCount > 1,
  healthcheck: (reply) => reply.type('text/plain').send('okay'),
  installWording(app) {
    installToolkitJson(app);
    installToolkitStatusLine(app);
  },
  // The toolkit's server has no pages: /scorecards/{card} is its framework's 404 page.
  servesScorecardPage: false,
  requestError: toolkitErrorPage,
  refusal: (reply, error) => sendToolkitRefusal(reply, error, toolkitDialect.apiKey(reply.request)),
  // As given: for an official games folder, the order the toolkit finds its games in.
  games: (backend, key) => backend.listGamesAsOffered(key).map((descriptor) => toolkitDescriptor(descriptor, backend)),
  game: toolkitDescriptor,
  openCard(backend, key, body, reply) {
    // Its one refusal without a code: `error` holds the sentence, and there is no `message`.
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return reply.code(400).type('application/json').send({ error: 'request body must be a JSON object' });
    if (exceedsToolkitOpaqueLimit(body)) return sendOpaqueRefusal(reply);
    // It takes any value of competition_mode, false and strings included, as asking for a competition card.
    const { competition_mode: asked, ...rest } = body as Record<string, unknown>;
    return backend.openScorecard(key, asked === undefined || asked === null ? rest : { ...rest, competition_mode: true });
  },
  readCard: (backend, key, cardId) => toolkitCard(stillOpen(backend.getScorecard(key, cardId), cardId), backend, key),
  readGameCard(backend, key, cardId, gameId) {
    const { isOpen, games } = backend.getRunCounts(key, cardId);
    if (!isOpen) throw droppedCard(cardId);
    return toolkitGameCard(games, gameId);
  },
  closedCard: (card, backend, key) => toolkitCard(withUnplayedRuns(card, backend, key), backend, key),
  // Its refusals (a missing guid or card, another key's session) are worded as its own by toolkitRefusals.ts.
  command(backend, key, action, sent) {
    const body = withoutEmptyGuid(sent);
    refuseBareSlugOfSession(body);
    const fields = body as { game_id: string; guid?: unknown };
    const answer = backend.commandOrPromise(key, action, body);
    return answer instanceof Promise ? answer.then((response) => asTheToolkit(response, action, fields)) : asTheToolkit(answer, action, fields);
  },
};

/** The toolkit reads an empty guid as none: a RESET with one and a card_id starts a session. */
function withoutEmptyGuid(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || (body as { guid?: unknown }).guid !== '') return body;
  const { guid: _empty, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A frame as the toolkit's server words it. */
function asTheToolkit(response: FrameResponse, action: string, fields: { game_id: string; guid?: unknown }): FrameResponse {
  response.full_reset = false;
  // A RESET of a session is played as a step, which echoes the game as any action does; only a RESET that
  // starts one echoes `{}`. A repeated answer (competitionRules.ts) was worded when it was first given.
  if (action === 'RESET' && fields.guid != null && !isRepeatedAnswer(response))
    response.action_input = { ...response.action_input, data: { game_id: fields.game_id } };
  if (response.action_input.reasoning === undefined) response.action_input = { ...response.action_input, reasoning: null };
  // The toolkit names the game as the RESET did: a bare slug stays one.
  if (action === 'RESET' && !fields.game_id.includes('-')) response.game_id = fields.game_id;
  return response;
}

/** The toolkit finds a session by its guid and its game's full id together; a bare slug finds none, where the service's lookup takes one. */
function refuseBareSlugOfSession(body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const { game_id, guid, card_id } = body as Record<string, unknown>;
  if (typeof game_id === 'string' && guid != null && card_id == null && !game_id.includes('-'))
    throw new ApiError(400, 'SERVER_ERROR', `game ${game_id} not found`);
}

/** The toolkit forgets a card when it closes. */
function stillOpen(card: Scorecard, cardId: string): Scorecard {
  if (card.published_at != null) throw droppedCard(cardId);
  return card;
}

const droppedCard = (cardId: string) => new ApiError(404, 'SERVER_ERROR', `scorecard ${cardId} not found (closed cards are dropped)`);

/**
 * A competition card closes with every game it offers; the toolkit makes a session of each game not
 * played (it has no other way to score one), so such a game has one run, unplayed, with its baselines.
 */
function withUnplayedRuns(card: Scorecard, backend: ReferenceService, key: string | undefined): Scorecard {
  for (const environment of card.environments) {
    if (environment.runs.length > 0) continue;
    const baselines = backend.getGame(key, environment.id).baseline_actions ?? [];
    const zeros = baselines.map(() => 0);
    environment.runs.push({
      id: environment.id,
      guid: randomUUID(),
      score: 0,
      levels_completed: 0,
      actions: 0,
      resets: 0,
      state: 'NOT_FINISHED',
      completed: false,
      level_scores: zeros,
      level_actions: zeros,
      level_baseline_actions: baselines,
      number_of_levels: baselines.length,
      number_of_environments: 1,
    });
  }
  return card;
}

/** A card as the toolkit scores it (its runs' actions, its tags_scores) and writes it. */
function toolkitCard(card: Scorecard, backend: ReferenceService, key: string | undefined): unknown {
  return sparseCard(withToolkitTagScores(withToolkitRunActions(card), backend, key));
}

/** The card with the fields the toolkit does not keep left out, and those without a value too (it writes no nulls). */
function sparseCard(card: Scorecard): unknown {
  const sparse = card as Record<string, unknown>;
  for (const field of CARD_FIELDS_LEFT_OUT) delete sparse[field];
  for (const [field, value] of Object.entries(sparse)) if (value === null) delete sparse[field];
  for (const environment of card.environments) {
    for (const run of environment.runs) for (const field of RUN_FIELDS_LEFT_OUT) delete (run as Record<string, unknown>)[field];
  }
  return sparse;
}
