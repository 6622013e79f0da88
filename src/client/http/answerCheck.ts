/**
 * Every answer is checked against its request before anything of it is used, its cookies included
 * (docs/protocol.md §7, DESIGN "answers are checked against requests"). A proxy or balancer that sends one answer
 * twice on a keep-alive connection shifts every later answer on it by one: the next request gets
 * another session's frame, and its Set-Cookie would land in the wrong card's jar. A frame must name the
 * session (guid), the game and the action that was sent; a scorecard the card asked for; a game the id
 * asked for. Ids must also be what the API defines (protocol/ids.ts), since the runner names files
 * with them. Anything else is a `protocol` TransportError, and the attempt's connection is closed.
 */
import type { FrameResponse, GameDescriptor, ScorecardAnswer } from '../../protocol/index.ts';
import { isGameId, isSameGame, isUuid, shownId } from '../../protocol/index.ts';
import { AnswerOutOfStepError, TransportError } from '../transport.ts';

/** What a frame answer must name: the game and action sent, and the session when one was named. */
export interface FrameExpectation {
  readonly gameId: string;
  /**
   * Undefined for a RESET that starts a session: then a well-formed guid that names none of the
   * sessions this client already has (`knownSessions`) is the new session's. A stale RESET answer of
   * another session fits everything else.
   */
  readonly guid: string | undefined;
  readonly actionId: number;
  readonly knownSessions?: ReadonlySet<string>;
}

export function checkFrame(frame: FrameResponse, expected: FrameExpectation, what: string): FrameResponse {
  // Cheap comparisons first: they decide the common case without a regular expression.
  if (
    (expected.guid === undefined ? !isUuid(frame.guid) || expected.knownSessions?.has(frame.guid) === true : frame.guid !== expected.guid) ||
    (frame.action_input.id !== expected.actionId && !isUnplayedReset(frame, expected)) ||
    !(frame.game_id === expected.gameId || isSameGame(expected.gameId, frame.game_id))
  ) {
    throw mismatch(
      what,
      `session ${shownId(frame.guid)}, game ${shownId(frame.game_id)}, action ${frame.action_input.id}`,
      `${expected.guid === undefined ? 'a new session' : `session ${expected.guid}`}, game ${expected.gameId}, action ${expected.actionId}`,
    );
  }
  // Only a full id answering a bare slug is new to the client, and only its version part unchecked yet.
  if (frame.game_id !== expected.gameId && !isGameId(frame.game_id)) throw badId(what, 'game_id', frame.game_id, 'a game id (slug-hex or a bare slug)');
  return frame;
}

/**
 * The toolkit's server in competition mode answers a RESET of a level that has had no action yet with the
 * session's frame as it is, the previous action's `action_input` echoed (docs/protocol.md §7a): nothing was
 * played, and the runner counts nothing (unplayedReset). It names the session the RESET named.
 */
function isUnplayedReset(frame: FrameResponse, expected: FrameExpectation): boolean {
  return expected.actionId === 0 && expected.guid !== undefined && frame.guid === expected.guid;
}

/** A scorecard answer: the card asked for (when the answer names one), restricted to the game asked for. */
export function checkScorecard(card: ScorecardAnswer, cardId: string, gameId: string | undefined, what: string): ScorecardAnswer {
  if (card.card_id !== undefined && card.card_id !== cardId) throw mismatch(what, `card ${shownId(card.card_id)}`, `card ${cardId}`);
  for (const environment of card.environments ?? []) {
    if (!isGameId(environment.id)) throw badId(what, 'environments[].id', environment.id, 'a game id (slug-hex or a bare slug)');
    if (gameId !== undefined && !isSameGame(gameId, environment.id))
      throw mismatch(what, `an entry for game ${shownId(environment.id)}`, `only game ${gameId}`);
  }
  return card;
}

/** The card id an open answered: a uuid, since it goes into URLs and results. */
export function checkCardId(cardId: string, what: string): string {
  if (!isUuid(cardId)) throw badId(what, 'card_id', cardId, 'a uuid');
  return cardId;
}

/** Game descriptors: well-formed ids, and the game asked for when one was. */
export function checkDescriptors(games: readonly GameDescriptor[], requested: string | undefined, what: string): void {
  for (const game of games) {
    if (!isGameId(game.game_id)) throw badId(what, 'game_id', game.game_id, 'a game id (slug-hex or a bare slug)');
    if (requested !== undefined && !isSameGame(requested, game.game_id)) throw mismatch(what, `game ${shownId(game.game_id)}`, `game ${requested}`);
  }
}

function mismatch(what: string, answered: string, sent: string): TransportError {
  return new AnswerOutOfStepError(
    `${what}: the answer belongs to another request (it names ${answered}; the request was for ${sent}). A proxy or load balancer ` +
      'mixed up answers on a connection: that connection was closed and nothing of the answer was used; an action may or may not have been applied.',
  );
}

function badId(what: string, field: string, value: unknown, expected: string): TransportError {
  return new TransportError('protocol', `${what}: the answer's ${field} ${shownId(value)} is not ${expected}; it was not used (ids name files and URLs)`);
}
