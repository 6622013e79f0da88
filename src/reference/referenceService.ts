/**
 * The reference implementation of the game-session scoring service (docs/protocol.md §2–§6), as a pure object:
 * one method per endpoint, each taking the caller's key and the raw body, each validating with the
 * protocol schemas and throwing ApiError for every error answer. No I/O and no timers: time comes from
 * the injected clock and ids from the seeded generator, so the HTTP server and in-process callers get
 * the very same behaviour, and tests can drive time.
 */
import {
  ApiError,
  actionIdOf,
  CLICK_ACTION_ID,
  actionInputOf,
  closeScorecardRequestSchema,
  DEFAULT_CLOSED_RETENTION_MS,
  DEFAULT_IDLE_CLOSE_MS,
  DEFAULT_MAX_OPEN_MS,
  gameNotStarted,
  MAX_LEVEL_COUNTER,
  openScorecardRequestSchema,
  parseRequest,
  validationError,
  type ActionInput,
  type ActionName,
  type FrameResponse,
  type GameActionId,
  type GameDescriptor,
  type Grid,
  type OpenScorecardResponse,
  type Scorecard,
  stringifyJson,
} from '../protocol/index.ts';
import { gameCatalog } from '../games/catalog.ts';
import {
  type AnyGame,
  type Game,
  type GameInput,
  type GameMetadata,
  type GamePlay,
  type HostedFrame,
  type HostedGame,
  type HostedPlay,
  isHosted,
} from '../games/types.ts';
import type { Clock } from './clock.ts';
import { describeGame, GameDirectory } from './gameDirectory.ts';
import { SeededIdGenerator } from './ids.ts';
import { KeyRing, type Caller, type UserIdentity } from './keyring.ts';
import { actionRequest, resetRequest, type CommandBody } from './commandRequest.ts';
import { type CompetitionRules, openRefusal, opensCompetitionCard, repeatedAnswer, repeatsLastAnswers, sessionResetKind } from './competitionRules.ts';
import { RunTracker } from './run.ts';
import { type GameRunCounts, ScorecardRecord } from './scorecardRecord.ts';
import { Session } from './session.ts';

export type { UserIdentity } from './keyring.ts';

export interface ReferenceServiceOptions {
  /** The games offered; default: gameCatalog(). Hosted games (the official ones) are answered later. */
  games?: readonly AnyGame[];
  /** The seed each hosted game's play starts from (its own randomness); default 0, as the official toolkit. */
  gameSeed?: number;
  /** ms since epoch; default Date.now. */
  now?: () => number;
  /** Seeds card_id/guid generation; default: random. */
  seed?: number;
  /** Accepted keys and their users; undefined: any non-empty key, each its own anonymous user. */
  keys?: ReadonlyMap<string, UserIdentity>;
  /** A card closes after this long without a counted action; default 15 min. */
  idleCloseMs?: number;
  /** A card closes this long after it opened; default 24 h. */
  maxOpenMs?: number;
  /** A closed card stays readable this long, then is forgotten (about 2 KiB each); default 24 h. */
  closedRetentionMs?: number;
  /**
   * Signs the anonymous keys of GET /api/games/anonkey; services given the same secret (the backends of
   * one server) accept each other's. Default: random per service.
   */
  anonymousKeySecret?: Uint8Array;
  /** Whose rules competition cards follow (competitionRules.ts); default `hosted`, the hosted service's. */
  competitionRules?: CompetitionRules;
}

export class ReferenceService {
  private readonly directory: GameDirectory;
  private readonly now: Clock;
  private readonly ids: SeededIdGenerator;
  private readonly keyRing: KeyRing;
  private readonly idleCloseMs: number;
  private readonly maxOpenMs: number;
  private readonly closedRetentionMs: number;
  private readonly gameSeed: number;
  readonly competitionRules: CompetitionRules;
  /** Cards opened in this service's life, forgotten ones included. */
  private cardsOpened = 0;
  private readonly cards = new Map<string, ScorecardRecord>();
  private readonly openCards = new Set<ScorecardRecord>();
  /** Closed cards in the order they closed, each with when it is forgotten (non-decreasing). */
  private readonly closedCards = new Map<ScorecardRecord, number>();
  /** Live sessions only: a session leaves this map when its card closes. */
  private readonly sessions = new Map<string, Session>();

  constructor(options: ReferenceServiceOptions = {}) {
    this.directory = new GameDirectory(options.games ?? gameCatalog());
    this.now = options.now ?? Date.now;
    this.ids = new SeededIdGenerator(options.seed);
    this.keyRing = new KeyRing(options.keys, options.anonymousKeySecret);
    this.idleCloseMs = positiveOr(options.idleCloseMs, DEFAULT_IDLE_CLOSE_MS, 'idleCloseMs');
    this.maxOpenMs = positiveOr(options.maxOpenMs, DEFAULT_MAX_OPEN_MS, 'maxOpenMs');
    this.gameSeed = options.gameSeed ?? 0;
    this.competitionRules = options.competitionRules ?? 'hosted';
    this.closedRetentionMs = positiveOr(options.closedRetentionMs, DEFAULT_CLOSED_RETENTION_MS, 'closedRetentionMs');
  }

  /** GET /api/games/anonkey: needs no key; answers a key this service then accepts, its own anonymous user. */
  anonymousKey(): { api_key: string } {
    return { api_key: this.keyRing.issueAnonymousKey() };
  }

  /** GET /api/games: every game's descriptor, sorted by title. */
  listGames(key: string | undefined): GameDescriptor[] {
    this.keyRing.authenticate(key);
    return this.directory.descriptors();
  }

  /** The games' descriptors in the order the service was given them, as the toolkit's server lists its folder's (docs/protocol.md §7a). */
  listGamesAsOffered(key: string | undefined): GameDescriptor[] {
    this.keyRing.authenticate(key);
    return this.directory.offered.map(describeGame);
  }

  /** GET /api/games/{id}: one descriptor, by full id or bare slug. */
  getGame(key: string | undefined, gameId: string): GameDescriptor {
    this.keyRing.authenticate(key);
    const game = typeof gameId === 'string' ? this.directory.find(gameId) : undefined;
    if (game === undefined) throw new ApiError(404, 'SERVER_ERROR', `game ${printable(gameId)} not found; GET /api/games lists the games this service offers`);
    return describeGame(game);
  }

  /**
   * What an official game's metadata.json says of it (its authors' tags, its download date), by full id or
   * bare slug, for a dialect that shows those words (the toolkit's); undefined for our own games and unknown ids.
   */
  gameMetadata(gameId: string): GameMetadata | undefined {
    return this.directory.find(gameId)?.info.metadata;
  }

  /** POST /api/scorecard/open. */
  openScorecard(key: string | undefined, body: unknown): OpenScorecardResponse {
    const caller = this.keyRing.authenticate(key);
    const request = parseRequest(openScorecardRequestSchema, body);
    const now = this.now();
    const openCompetitionCard = this.openCardsOf(caller.owner).find((card) => card.competition)?.cardId;
    const refusal = openRefusal(this.competitionRules, openCompetitionCard, this.cardsOpened);
    if (refusal !== undefined) throw refusal;
    const tags = [...(request.tags ?? [])];
    if (!tags.includes('agent') && !tags.includes('human')) tags.push('agent');
    const card = new ScorecardRecord({
      cardId: this.freshId(),
      owner: caller.owner,
      identity: caller.identity,
      sourceUrl: request.source_url ?? undefined,
      tags,
      opaqueJson: request.opaque === undefined ? undefined : stringifyJson(request.opaque),
      competition: opensCompetitionCard(this.competitionRules, request.competition_mode),
      openedAt: now,
    });
    this.cards.set(card.cardId, card);
    this.openCards.add(card);
    this.cardsOpened++;
    return { card_id: card.cardId };
  }

  /** POST /api/scorecard/close: ends the card's sessions and returns the final scorecard. */
  closeScorecard(key: string | undefined, body: unknown): Scorecard {
    const caller = this.keyRing.authenticate(key);
    const request = parseRequest(closeScorecardRequestSchema, body);
    const card = this.ownedCard(caller, request.card_id);
    if (card === undefined) throw new ApiError(404, 'VALIDATION_ERROR', `scorecard ${request.card_id} not found; open one with POST /api/scorecard/open`);
    if (!card.isOpen)
      throw new ApiError(
        404,
        'VALIDATION_ERROR',
        `scorecard ${request.card_id} is already closed (at ${new Date(card.closedAt!).toISOString()}); read it with GET /api/scorecard/${request.card_id}`,
      );
    this.close(card, this.now());
    return card.toScorecard();
  }

  /** GET /api/scorecard/{card_id}[/{game_id}]: open or closed (competition: closed only); restricted to one game when asked. */
  getScorecard(key: string | undefined, cardId: string, gameId?: string): Scorecard {
    const card = this.readableCard(key, cardId);
    if (gameId === undefined) return card.toScorecard();
    const game = typeof gameId === 'string' ? this.directory.find(gameId) : undefined;
    if (game === undefined) throw new ApiError(404, 'SERVER_ERROR', `game ${printable(gameId)} not found; GET /api/games lists the games this service offers`);
    return card.toScorecard(game);
  }

  /**
   * The card's runs game by game with their plain counters, readable as getScorecard's card is: what the
   * toolkit's per-game card lists (docs/protocol.md §7a). `isOpen` tells whether the card is still open.
   */
  getRunCounts(key: string | undefined, cardId: string): { isOpen: boolean; games: GameRunCounts[] } {
    const card = this.readableCard(key, cardId);
    return { isOpen: card.isOpen, games: card.runCounts() };
  }

  /** The caller's card, if it may be read now. */
  private readableCard(key: string | undefined, cardId: string): ScorecardRecord {
    const caller = this.keyRing.authenticate(key);
    const card = typeof cardId === 'string' ? this.ownedCard(caller, cardId) : undefined;
    if (card === undefined) throw new ApiError(404, 'SERVER_ERROR', `scorecard ${printable(cardId)} not found; check the card_id that open returned`);
    // Hidden while open so an agent cannot watch its score; once closed the score is public anyway (close
    // answers it), and an auto-closed card would otherwise be lost to its owner.
    if (card.competition && card.isOpen)
      throw new ApiError(403, 'SERVER_ERROR', `scorecard ${cardId} is an open competition card and cannot be read; close it to get its score`);
    return card;
  }

  /**
   * The card as its public page shows it (`/scorecards/{card_id}`, the link a run prints): anyone with the
   * id may read it, as on the hosted site; an open competition card stays hidden, as it does from its owner.
   * Undefined when this service does not hold it.
   */
  publicScorecard(cardId: string): Scorecard | undefined {
    const card = this.cards.get(cardId);
    if (card === undefined) return undefined;
    this.expireIfDue(card, this.now());
    return card.competition && card.isOpen ? undefined : card.toScorecard();
  }

  /**
   * POST /api/cmd/{RESET|ACTION1..7} for callers that hold only our own games (the hand player, benches):
   * answered at once. A hosted game's command is a TypeError here; `commandOrPromise` takes every game.
   */
  command(key: string | undefined, action: ActionName, body: unknown): FrameResponse {
    const gameId = (body as { game_id?: unknown } | null)?.game_id;
    const game = typeof gameId === 'string' ? this.directory.find(gameId) : undefined;
    if (game !== undefined && isHosted(game)) throw new TypeError(`game ${gameId} answers later; send its commands with commandOrPromise`);
    return this.commandOrPromise(key, action, body) as FrameResponse;
  }

  /**
   * POST /api/cmd/{RESET|ACTION1..7}, what both transports call: answered at once for our own games, a
   * promise for a hosted game, whose engine answers from another process (its errors reject it).
   */
  commandOrPromise(key: string | undefined, action: ActionName, body: unknown): FrameResponse | Promise<FrameResponse> {
    const caller = this.keyRing.authenticate(key);
    const actionId = typeof action === 'string' ? actionIdOf(action) : undefined;
    if (actionId === undefined) throw new ApiError(404, 'SERVER_ERROR', `no command ${printable(action)}; commands are RESET and ACTION1 to ACTION7`);
    if (actionId === 0) return this.reset(caller, resetRequest(body));
    return this.act(caller, actionId as GameActionId, actionRequest(actionId, body));
  }

  /**
   * Whether `guid` names a live session another key started. No endpoint asks it; the toolkit dialect of
   * the server does, as the toolkit's server refuses such a command with another code (docs/protocol.md §7a).
   */
  isSessionOfAnotherKey(key: string | undefined, guid: unknown): boolean {
    const session = typeof guid === 'string' ? this.sessions.get(guid) : undefined;
    return session !== undefined && session.owner !== this.keyRing.authenticate(key).owner;
  }

  /** Closes every card past its idle or maximum lifetime; returns how many. */
  sweep(): number {
    const now = this.now();
    let closed = 0;
    for (const card of [...this.openCards]) if (this.expireIfDue(card, now)) closed++;
    return closed;
  }

  /** Forgets closed cards past their retention (then they are not found); returns how many. */
  forgetClosedCards(): number {
    const now = this.now();
    let forgotten = 0;
    for (const [card, forgetAt] of this.closedCards) {
      if (forgetAt > now) break;
      this.closedCards.delete(card);
      this.cards.delete(card.cardId);
      forgotten++;
    }
    return forgotten;
  }

  /** Cards held in memory, open and closed. */
  get cardCount(): number {
    return this.cards.size;
  }

  /**
   * Ids of the caller's cards this service still holds (open, and closed within their retention). No
   * endpoint offers this; an operator or a test asks it to find cards nobody closed.
   */
  scorecardIds(key: string | undefined): string[] {
    const caller = this.keyRing.authenticate(key);
    const ids: string[] = [];
    for (const card of this.cards.values()) if (card.owner === caller.owner) ids.push(card.cardId);
    return ids;
  }

  // ------------------------------------------------------------------ commands

  private reset(caller: Caller, request: CommandBody): FrameResponse | Promise<FrameResponse> {
    const game = this.findGame(request.game_id);
    if (request.guid === undefined || request.guid === null)
      return isHosted(game) ? this.startHostedSession(caller, game, request) : this.startSession(caller, game, request);
    const session = this.liveSession(caller, request.guid, game);
    const kind = sessionResetKind(this.competitionRules, session.card.competition, session.state, session.actionsOnLevel);
    if (kind === 'refused')
      throw gameNotStarted(`session ${session.guid} has won ${game.info.id}; in competition mode a run cannot be restarted, close the scorecard`);
    if (kind === 'repeat-last-answer') return isHosted(game) ? session.serially(async () => this.repeatLastAnswer(session)) : this.repeatLastAnswer(session);
    if (isHosted(game)) return session.serially(() => this.hostedReset(session, request, kind === 'level-reset'));
    const play = session.play as GamePlay;
    const now = this.now();
    session.card.lastUpdateAt = now;
    if (kind === 'new-run') {
      session.play = game.start();
      session.run = new RunTracker(game.info.id, session.guid, game.info.baselineActions);
      session.state = 'NOT_FINISHED';
      session.actionsOnLevel = 0;
      session.card.addRun(game, session.run);
      return this.frameResponse(session, [(session.play as GamePlay).frame()], actionInputOf(game.info.id, { id: 0, reasoning: request.reasoning }), true);
    }
    // At the very start of a level (a competition card's RESET there, by the hosted rules) the grid stays as it is.
    const frame = session.actionsOnLevel === 0 ? play.frame() : play.resetLevel();
    return this.levelReset(session, frame, request, now);
  }

  /**
   * The toolkit's RESET at a level's very start on a competition card (competitionRules.ts): nothing is
   * played, the session's last answer comes again, and it is counted as that answer's action was: a
   * RESET's as a level reset, a game action's as one more action on the level.
   */
  private repeatLastAnswer(session: Session): FrameResponse {
    const last = session.lastAnswer;
    if (last.action_input.id === 0) session.run.recordLevelReset();
    else session.run.recordAction(false);
    const now = this.now();
    session.card.lastCountedAt = now;
    session.card.lastUpdateAt = now;
    return repeatedAnswer({ ...last, game_id: session.game.info.id, frame: [...last.frame] });
  }

  private levelReset(session: Session, frame: Grid, request: CommandBody, now: number): FrameResponse {
    session.run.recordLevelReset();
    session.state = 'NOT_FINISHED';
    session.actionsOnLevel = 0;
    session.card.lastCountedAt = now;
    return this.frameResponse(session, [frame], actionInputOf(session.game.info.id, { id: 0, reasoning: request.reasoning }), false);
  }

  private startSession(caller: Caller, game: Game, request: CommandBody): FrameResponse {
    const card = this.cardToStartOn(caller, game, request);
    const guid = this.freshId();
    const run = new RunTracker(game.info.id, guid, game.info.baselineActions);
    const session = new Session(guid, game, card, caller.owner, game.start(), run);
    this.sessions.set(guid, session);
    card.sessions.add(session);
    card.addRun(game, run);
    card.lastUpdateAt = this.now();
    return this.frameResponse(session, [(session.play as GamePlay).frame()], actionInputOf(game.info.id, { id: 0, reasoning: request.reasoning }), true);
  }

  // ------------------------------------------------------------------ hosted games (docs/protocol.md §10)

  private async startHostedSession(caller: Caller, game: HostedGame, request: CommandBody): Promise<FrameResponse> {
    const card = this.cardToStartOn(caller, game, request);
    const { play, frame } = await this.fromEngine(game, () => game.open(this.gameSeed));
    if (!card.isOpen) {
      play.close();
      throw notFound(game.info.id, `scorecard ${card.cardId} closed while the game started; open another one`);
    }
    const guid = this.freshId();
    const run = new RunTracker(game.info.id, guid, game.info.baselineActions);
    const session = new Session(guid, game, card, caller.owner, play, run);
    this.sessions.set(guid, session);
    card.sessions.add(session);
    card.addRun(game, run);
    card.lastUpdateAt = this.now();
    return this.frameResponse(session, frame.frames, actionInputOf(game.info.id, { id: 0, reasoning: request.reasoning }), true, frame);
  }

  /**
   * The engine's own RESET: it decides level or full (docs/protocol.md §10); on a competition card, where the
   * rules want a level reset, the engine is asked for one (`levelWanted`).
   */
  private async hostedReset(session: Session, request: CommandBody, levelWanted: boolean): Promise<FrameResponse> {
    const game = session.game as HostedGame;
    const levelsOnly = session.card.competition && levelWanted;
    const frame = await this.fromEngine(game, () => (session.play as HostedPlay).reset(levelsOnly), session);
    const now = this.now();
    session.card.lastUpdateAt = now;
    if (frame.fullReset) {
      session.run = new RunTracker(game.info.id, session.guid, game.info.baselineActions);
      session.card.addRun(game, session.run);
    } else {
      session.run.recordLevelReset();
      session.card.lastCountedAt = now;
    }
    session.state = 'NOT_FINISHED';
    session.actionsOnLevel = 0;
    return this.frameResponse(session, frame.frames, actionInputOf(game.info.id, { id: 0, reasoning: request.reasoning }), frame.fullReset, frame);
  }

  private async hostedAct(session: Session, input: GameInput, request: CommandBody): Promise<FrameResponse> {
    if (session.state !== 'NOT_FINISHED') throw gameNotStarted(`session ${session.guid} is in state ${session.state}; send RESET with this guid to play again`);
    const game = session.game as HostedGame;
    const frame = await this.fromEngine(game, () => (session.play as HostedPlay).step(input), session);
    const run = session.run;
    const completed = frame.levelsCompleted > run.levelsCompleted;
    run.recordAction(completed);
    session.actionsOnLevel = completed ? 0 : session.actionsOnLevel + 1;
    if (frame.state === 'WIN') run.recordWin();
    if (frame.state === 'GAME_OVER') run.recordLoss();
    session.state = frame.state;
    const now = this.now();
    session.card.lastCountedAt = now;
    session.card.lastUpdateAt = now;
    const echo = actionInputOf(game.info.id, { id: input.id, x: request.x, y: request.y, reasoning: request.reasoning });
    return this.frameResponse(session, frame.frames, echo, false, frame);
  }

  /**
   * A call into a hosted game. When it fails (the game raised, its host died) the session cannot go on:
   * it ends, and the answer is a 500 saying why.
   */
  private async fromEngine<T>(game: HostedGame, call: () => Promise<T>, session?: Session): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (session !== undefined) {
        this.sessions.delete(session.guid);
        session.card.sessions.delete(session);
        (session.play as HostedPlay).close();
      }
      throw new ApiError(500, 'SERVER_ERROR', `game ${game.info.id} failed: ${(error as Error).message}`);
    }
  }

  /** The caller's open card a RESET without guid starts a session of `game` on. */
  private cardToStartOn(caller: Caller, game: AnyGame, request: CommandBody): ScorecardRecord {
    if (request.card_id === undefined || request.card_id === null)
      throw validationError('card_id: is required on a RESET without guid; open a scorecard and pass its card_id, or pass the guid of a session to reset it');
    const card = this.ownedCard(caller, request.card_id);
    if (card === undefined || !card.isOpen)
      throw notFound(request.game_id, `scorecard ${request.card_id} is unknown or closed; open one with POST /api/scorecard/open`);
    if (card.competition && card.hasPlayed(game))
      throw notFound(request.game_id, `competition mode allows one session per game per scorecard; RESET with the guid of the session already started`);
    return card;
  }

  private act(caller: Caller, actionId: GameActionId, request: CommandBody): FrameResponse | Promise<FrameResponse> {
    const game = this.findGame(request.game_id);
    const session = this.liveSession(caller, request.guid!, game);
    const input: GameInput = actionId === CLICK_ACTION_ID ? { id: CLICK_ACTION_ID, x: request.x!, y: request.y! } : { id: actionId };
    if (isHosted(game)) return session.serially(() => this.hostedAct(session, input, request));
    if (session.state !== 'NOT_FINISHED') throw gameNotStarted(`session ${session.guid} is in state ${session.state}; send RESET with this guid to play again`);
    const result = (session.play as GamePlay).step(input);
    const run = session.run;
    session.actionsOnLevel += 1;
    switch (result.outcome) {
      case 'playing':
        run.recordAction(false);
        break;
      case 'level_completed':
        run.recordAction(true);
        session.actionsOnLevel = 0;
        break;
      case 'won':
        run.recordAction(true);
        run.recordWin();
        session.state = 'WIN';
        session.actionsOnLevel = 0;
        break;
      case 'lost':
        run.recordAction(false);
        run.recordLoss();
        session.state = 'GAME_OVER';
        break;
    }
    const now = this.now();
    session.card.lastCountedAt = now;
    session.card.lastUpdateAt = now;
    const frames = result.frames.length > 0 ? result.frames : [(session.play as GamePlay).frame()];
    const echo = actionInputOf(game.info.id, { id: actionId, x: request.x, y: request.y, reasoning: request.reasoning });
    return this.frameResponse(session, frames, echo, false);
  }

  private frameResponse(session: Session, frames: readonly Grid[], actionInput: ActionInput, fullReset: boolean, engine?: HostedFrame): FrameResponse {
    const info = session.game.info;
    const answer: FrameResponse = {
      game_id: info.id,
      guid: session.guid,
      // Not copied again: a game hands out fresh grids it never touches afterwards (Game's contract), so
      // the caller may keep or change them already; a second 4 KiB copy per grid was a tenth of an action.
      frame: [...frames],
      state: session.state,
      levels_completed: Math.min(session.run.levelsCompleted, MAX_LEVEL_COUNTER),
      win_levels: Math.min(engine?.winLevels ?? info.baselineActions.length, MAX_LEVEL_COUNTER),
      action_input: actionInput,
      available_actions: [...(engine?.availableActions ?? info.availableActions)],
      full_reset: fullReset,
    };
    // Kept only where it may be repeated: a session holding its grids past their use would cost every run memory.
    if (session.card.competition && repeatsLastAnswers(this.competitionRules)) session.lastAnswer = answer;
    return answer;
  }

  // ------------------------------------------------------------------ lookups and lifecycle

  private findGame(gameId: string): AnyGame {
    const game = this.directory.find(gameId);
    if (game === undefined) throw notFound(gameId, 'no such game; GET /api/games lists the games this service offers');
    return game;
  }

  /** The caller's live session `guid` of `game`, after closing its card if it expired. */
  private liveSession(caller: Caller, guid: string, game: AnyGame): Session {
    const session = this.sessions.get(guid);
    if (session === undefined || session.owner !== caller.owner || this.expireIfDue(session.card, this.now()))
      throw notFound(game.info.id, `no live session ${guid} for this key (unknown, or ended when its scorecard closed); start one with RESET and a card_id`);
    if (session.game !== game)
      throw notFound(
        game.info.id,
        `session ${guid} plays ${session.game.info.id}; send that game_id, or start a session of this game with RESET and a card_id`,
      );
    return session;
  }

  /** The card if it exists and belongs to the caller (another key's card is not found), expired cards closed first. */
  private ownedCard(caller: Caller, cardId: string): ScorecardRecord | undefined {
    const card = this.cards.get(cardId);
    if (card === undefined || card.owner !== caller.owner) return undefined;
    this.expireIfDue(card, this.now());
    return card;
  }

  private openCardsOf(owner: string): ScorecardRecord[] {
    const now = this.now();
    const result: ScorecardRecord[] = [];
    for (const card of [...this.openCards]) if (card.owner === owner && !this.expireIfDue(card, now)) result.push(card);
    return result;
  }

  /** Closes the card at its deadline when the deadline has passed; true if it is (now) closed by expiry. */
  private expireIfDue(card: ScorecardRecord, now: number): boolean {
    if (!card.isOpen) return false;
    const deadline = card.closesAt(this.idleCloseMs, this.maxOpenMs);
    if (now < deadline) return false;
    this.close(card, deadline);
    return true;
  }

  private close(card: ScorecardRecord, at: number): void {
    card.closedAt = at;
    card.lastUpdateAt = Math.max(card.lastUpdateAt, at);
    this.openCards.delete(card);
    // Counted from now, not from `at` (an expiry found late): forget times stay in closing order.
    this.closedCards.set(card, this.now() + this.closedRetentionMs);
    for (const session of card.sessions) {
      this.sessions.delete(session.guid);
      if (isHosted(session.game)) (session.play as HostedPlay).close();
    }
    card.sessions.clear();
    if (card.competition) for (const game of this.directory.games) if (!card.hasPlayed(game)) card.addUnplayedGame(game);
  }

  private freshId(): string {
    for (;;) {
      const id = this.ids.nextUuid();
      if (!this.cards.has(id) && !this.sessions.has(id)) return id;
    }
  }
}

/** The 400 SERVER_ERROR "game … not found" of docs/protocol.md §6, with why and what to do. */
function notFound(gameId: string, reason: string): ApiError {
  return new ApiError(400, 'SERVER_ERROR', `game ${gameId} not found: ${reason}`);
}

/** A caller's value for a message: strings as they are (shortened), anything else by its kind. */
function printable(value: unknown): string {
  if (typeof value !== 'string') return `(a ${value === null ? 'null' : typeof value}, not a string)`;
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}

function positiveOr(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new RangeError(`ReferenceService: ${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}
