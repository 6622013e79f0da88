/**
 * The one interface between the runner and a game service, at the level of the API. InProcessTransport
 * calls ReferenceService directly; HttpTransport speaks HTTP to any service URL. The same agent, runner
 * and results come out of either.
 *
 * Errors: a service answer that is an error rejects with `ApiError` (protocol/errors.ts) whatever the
 * transport. A failure where the service may or may not have acted (a timeout after sending an action,
 * a 502/504) rejects with `TransportError` of kind `ambiguous`; one where it surely did not act, after
 * retries ran out, with kind `unreachable`.
 */
import type { FrameResponse, GameAction, GameDescriptor, OpenScorecardRequest, ScorecardAnswer } from '../protocol/index.ts';
import { ArcbenchError } from '../errors.ts';

export interface TransportStats {
  /** Requests sent, retries included. */
  requests: number;
  /** Retries, by cause (`429`, `connection_refused`, `5xx`, …). */
  retries: Record<string, number>;
  /** Scorecard opens whose answer was lost: each may have left an empty card open on the service. */
  unconfirmedOpens: number;
  /** Fields arcbench uses that the service's answers left out (`scorecard.environments[].runs`, …). */
  missingFields: string[];
}

export interface Transport {
  /** `in-process`, or the base URL. */
  readonly target: string;
  listGames(): Promise<GameDescriptor[]>;
  getGame(gameId: string): Promise<GameDescriptor>;
  /** Opens a scorecard; the transport keeps that card's cookie jar from here until close. */
  openScorecard(request?: OpenScorecardRequest): Promise<string>;
  /** The card as the service answers it: fields it leaves out are missing (docs/protocol.md §7a). */
  closeScorecard(cardId: string): Promise<ScorecardAnswer>;
  /**
   * The card, or with `gameId` the card restricted to that game. A service that answers the per-game
   * path with the game's plays (the toolkit's server, docs/protocol.md §7a) gives only run entries without scores
   * or baselines there: its whole card has them.
   */
  getScorecard(cardId: string, gameId?: string): Promise<ScorecardAnswer>;
  /** RESET: a new session when `guid` is undefined, else a reset of that session (docs/protocol.md §4). */
  reset(cardId: string, gameId: string, guid?: string): Promise<FrameResponse>;
  /** One game action in a session of the card. */
  act(cardId: string, gameId: string, guid: string, action: GameAction): Promise<FrameResponse>;
  stats(): TransportStats;
  /**
   * Cuts every request under way short (in flight, or waiting for a retry or a rate-limit slot): they
   * reject with TransportError `interrupted`. Requests made afterwards go out as usual, so a stopping
   * run can still close its cards.
   */
  interrupt(): void;
  /**
   * The card's load-balancer affinity cookies (docs/protocol.md §7) as `name=value`, for transports that have
   * them: saved in run.json, they let a resumed run reach a card a dead process left open.
   */
  affinityCookies?(cardId: string): string[];
  /** Gives a card opened by another process the affinity cookies it was saved with. */
  adoptAffinity?(cardId: string, cookies: readonly string[]): void;
  /** Releases connections; the transport is unusable afterwards. */
  close(): Promise<void>;
}

export type TransportErrorKind = 'ambiguous' | 'unreachable' | 'protocol' | 'interrupted';

/**
 * A failure below the API: see the kinds above; `protocol` is an answer that does not parse, or that
 * belongs to another request (then the action it answered may or may not have been applied).
 */
export class TransportError extends ArcbenchError {
  readonly kind: TransportErrorKind;
  constructor(kind: TransportErrorKind, message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? `TRANSPORT_${kind.toUpperCase()}`, message, options);
    this.kind = kind;
  }
}

/**
 * A `protocol` failure where the answer that came back belongs to another request (a proxy or balancer
 * answered twice on a connection): the request itself went out on that connection, so a game action
 * reached the service and was counted there, though its answer is lost. The runner counts it so.
 */
export class AnswerOutOfStepError extends TransportError {
  constructor(message: string) {
    // Its own code, so callers can tell it from other protocol failures; its kind says what is known.
    super('protocol', message, { code: 'TRANSPORT_ANSWER_OUT_OF_STEP' });
  }
}
