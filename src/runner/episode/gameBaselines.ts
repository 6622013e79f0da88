/**
 * Each game's level baselines, which per-level budgets and local scores need. The game list gives them
 * when the service has them. Some services do not (the official toolkit's server, docs/protocol.md §7a); their
 * scorecard's run entry of a game still does, so the runner reads `GET /api/scorecard/{card}/{game}`
 * after that game's first RESET, once per game for the whole run. Where neither gives them (competition
 * mode hides an open card) they stay unknown, and the run says so.
 */
import type { Transport } from '../../client/transport.ts';
import { ArcbenchError } from '../../errors.ts';
import type { FrameResponse, GameDescriptor, ScorecardAnswer } from '../../protocol/index.ts';
import { isSameGame } from '../../protocol/index.ts';

/** Per-level budgets asked for a game whose baselines no one gives. */
export class BaselinesUnknownError extends ArcbenchError {
  constructor(message: string) {
    super('BASELINES_UNKNOWN', message);
  }
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
    /** Told once per game whose baselines stay unknown, with why. */
    private readonly onUnknown: (gameId: string, why: string) => void,
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
    let card: ScorecardAnswer;
    try {
      card = await this.transport.getScorecard(cardId, gameId);
    } catch (error) {
      // Not remembered: a later episode of the game may read the card.
      this.onUnknown(gameId, `reading the scorecard for them failed (${(error as Error).message})`);
      return undefined;
    }
    const found = baselinesIn(card, gameId, frame.win_levels);
    if (found === undefined) return this.unknown(gameId, 'neither the game list nor the scorecard has them');
    this.#known.set(gameId, found);
    return found;
  }

  private unknown(gameId: string, why: string): undefined {
    if (!this.#known.has(gameId)) this.onUnknown(gameId, why);
    this.#known.set(gameId, undefined);
    return undefined;
  }
}

/** The baselines of a run entry of `gameId` whose level count agrees with the game's. */
function baselinesIn(card: ScorecardAnswer, gameId: string, winLevels: number): number[] | undefined {
  for (const environment of card.environments ?? []) {
    if (!isSameGame(gameId, environment.id)) continue;
    for (const run of environment.runs ?? []) {
      const baselines = run.level_baseline_actions;
      const levels = run.number_of_levels ?? winLevels;
      if (baselines !== undefined && baselines.length > 0 && baselines.length === levels) return [...baselines];
    }
  }
  return undefined;
}
