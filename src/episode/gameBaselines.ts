/**
 * Each game's level baselines, which per-level budgets and local scores need. The game list gives them
 * when the service has them. Some services do not (the official toolkit's server, docs/protocol.md §7a); their
 * scorecard's run entries of a game still do from its first RESET on, so the runner reads the card after
 * that RESET, once per game for the whole run: `GET /api/scorecard/{card}/{game}` first (a small answer
 * where it is a restricted card), then the whole card (the toolkit answers the per-game path with plays
 * that carry none). Where neither gives them (competition mode hides an open card) they stay unknown,
 * and the run says so.
 */
import type { Transport } from '../client/transport.ts';
import { ArcbenchError } from '../errors.ts';
import type { FrameResponse, GameDescriptor } from '../protocol/index.ts';
import { baselinesIn } from '../runfolder/cardBaselines.ts';

/** Per-level budgets asked for a game whose baselines no one gives. */
export class BaselinesUnknownError extends ArcbenchError {
  constructor(message: string) {
    super('BASELINES_UNKNOWN', message);
  }
}

/** What the run is told about a game's baselines, once per game. */
export interface BaselineNotices {
  /** The baselines stay unknown, with why. */
  unknown(gameId: string, why: string): void;
  /** The card's level count is not the game's `win_levels`: a sentence saying which one scores. */
  levelCountDiffers?(gameId: string, sentence: string): void;
}

/** The notices as warnings in the run's log. */
export function baselineNotices(logger: { warn(fields: object, message: string): void }): BaselineNotices {
  return {
    unknown: (gameId, why) =>
      logger.warn({ game: gameId, why }, 'level baselines unknown: per-level budgets cannot apply and local scores of this game are not computed'),
    levelCountDiffers: (gameId, sentence) => logger.warn({ game: gameId }, sentence),
  };
}

export class GameBaselines {
  /** Per game: its baselines, or undefined once the scorecard proved to have none. */
  readonly #known = new Map<string, number[] | undefined>();
  /** Reads under way, so episodes of one game starting together ask once. */
  readonly #reading = new Map<string, Promise<number[] | undefined>>();
  constructor(
    private readonly transport: Transport,
    /** False in competition mode: an open card cannot be read there. */
    private readonly canReadOpenCards: boolean,
    /** Told once per game (baselineNotices: the run's log). */
    private readonly notices: BaselineNotices,
  ) {}

  /** `game`'s baselines, once a RESET of it on `cardId` has answered `frame`; undefined when unknown. */
  async of(game: GameDescriptor, cardId: string, frame: FrameResponse): Promise<number[] | undefined> {
    if (game.baseline_actions !== undefined) return game.baseline_actions;
    if (this.#known.has(game.game_id)) return this.#known.get(game.game_id);
    if (!this.canReadOpenCards) return this.unknown(game.game_id, 'the game list has none, and in competition mode an open scorecard cannot be read');
    let reading = this.#reading.get(game.game_id);
    if (reading === undefined) {
      reading = this.read(game.game_id, cardId, frame).finally(() => this.#reading.delete(game.game_id));
      this.#reading.set(game.game_id, reading);
    }
    return reading;
  }

  private async read(gameId: string, cardId: string, frame: FrameResponse): Promise<number[] | undefined> {
    let found: number[] | undefined;
    try {
      found = baselinesIn(await this.transport.getScorecard(cardId, gameId), gameId);
      found ??= baselinesIn(await this.transport.getScorecard(cardId), gameId);
    } catch (error) {
      // Not remembered: a later episode of the game may read the card.
      this.notices.unknown(gameId, `reading the scorecard for them failed (${(error as Error).message})`);
      return undefined;
    }
    if (found === undefined)
      return this.unknown(gameId, 'neither the game list nor the scorecard has them (neither its answer for the game nor the whole card)');
    if (found.length !== frame.win_levels) {
      this.notices.levelCountDiffers?.(
        gameId,
        `the service's scorecard gives ${found.length} level baseline(s) for ${gameId} while its frames say win_levels ${frame.win_levels}; ` +
          `local scores use the card's ${found.length} level(s), as the service scores its card`,
      );
    }
    this.#known.set(gameId, found);
    return found;
  }

  private unknown(gameId: string, why: string): undefined {
    if (!this.#known.has(gameId)) this.notices.unknown(gameId, why);
    this.#known.set(gameId, undefined);
    return undefined;
  }
}
