/**
 * Transport that calls the reference service in the same process: no encoding, grids stay the service's
 * Uint8Arrays (games hand out fresh arrays per step, so agents may keep them), errors are the service's
 * own ApiError. No rate limit and no retries: nothing here can be lost in transit.
 */
import type { ActionName, CommandRequest, FrameResponse, GameAction, GameDescriptor, OpenScorecardRequest, Scorecard } from '../protocol/index.ts';
import { actionCommand, resetCommand } from './commandBody.ts';
import type { Transport, TransportStats } from './transport.ts';

/**
 * The part of ReferenceService this transport uses. Structural, so the class satisfies it as is and
 * tests can hand in the real service without a cast.
 */
export interface InProcessService {
  listGames(key: string): readonly GameDescriptor[];
  getGame(key: string, gameId: string): GameDescriptor;
  openScorecard(key: string, body: OpenScorecardRequest): { card_id: string };
  closeScorecard(key: string, body: { card_id: string }): Scorecard;
  getScorecard(key: string, cardId: string, gameId?: string): Scorecard;
  /** At once for the service's own games, later for a hosted one (an official game in its Python host). */
  commandOrPromise(key: string, name: ActionName, body: CommandRequest): FrameResponse | Promise<FrameResponse>;
}

export interface InProcessTransportOptions {
  /** The API key the service sees (it scopes cards and names the user). Default `local`. */
  key?: string;
}

const DEFAULT_IN_PROCESS_KEY = 'local';

/**
 * The in-process action answered at once, errors thrown: the episode loop (runEpisode.ts) takes this
 * path when the transport has it and so spends no promise and no trip through the microtask queue on an
 * action. A symbol, so that it stays off the Transport interface other transports implement, and out of
 * the package's entry: a speed path of the loop's, not an API.
 */
export const actAtOnce: unique symbol = Symbol('arcbench.actAtOnce');

/** A transport whose actions need no I/O (but for a hosted game's, which come as a promise). */
export interface AnswersAtOnce {
  [actAtOnce](cardId: string, gameId: string, guid: string, action: GameAction): FrameResponse | Promise<FrameResponse>;
}

export function answersAtOnce(transport: Transport): transport is Transport & AnswersAtOnce {
  return actAtOnce in transport;
}

export class InProcessTransport implements Transport, AnswersAtOnce {
  readonly target = 'in-process';
  private readonly service: InProcessService;
  private readonly key: string;
  private requests = 0;
  private closed = false;

  constructor(service: InProcessService, options: InProcessTransportOptions = {}) {
    this.service = service;
    this.key = options.key ?? DEFAULT_IN_PROCESS_KEY;
  }

  // Every method is async so a thrown ApiError becomes a rejection, exactly as over HTTP.

  async listGames(): Promise<GameDescriptor[]> {
    this.count();
    return [...this.service.listGames(this.key)];
  }

  async getGame(gameId: string): Promise<GameDescriptor> {
    this.count();
    return this.service.getGame(this.key, gameId);
  }

  async openScorecard(request: OpenScorecardRequest = {}): Promise<string> {
    this.count();
    return this.service.openScorecard(this.key, request).card_id;
  }

  async closeScorecard(cardId: string): Promise<Scorecard> {
    this.count();
    return this.service.closeScorecard(this.key, { card_id: cardId });
  }

  async getScorecard(cardId: string, gameId?: string): Promise<Scorecard> {
    this.count();
    return this.service.getScorecard(this.key, cardId, gameId);
  }

  async reset(cardId: string, gameId: string, guid?: string): Promise<FrameResponse> {
    this.count();
    const { name, body } = resetCommand(cardId, gameId, guid);
    return this.service.commandOrPromise(this.key, name, body);
  }

  async act(cardId: string, gameId: string, guid: string, action: GameAction): Promise<FrameResponse> {
    return this[actAtOnce](cardId, gameId, guid, action);
  }

  [actAtOnce](_cardId: string, gameId: string, guid: string, action: GameAction): FrameResponse | Promise<FrameResponse> {
    this.count();
    const { name, body } = actionCommand(gameId, guid, action);
    return this.service.commandOrPromise(this.key, name, body);
  }

  stats(): TransportStats {
    return { requests: this.requests, retries: {}, unconfirmedOpens: 0, missingFields: [] };
  }

  /** Nothing to cut short: every call here is over before the caller regains control. */
  interrupt(): void {}

  async close(): Promise<void> {
    this.closed = true;
  }

  private count(): void {
    if (this.closed) throw new Error('InProcessTransport: used after close(); create a new transport');
    this.requests++;
  }
}
