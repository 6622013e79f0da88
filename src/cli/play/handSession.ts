/**
 * A person's play of one game, served by an in-process ReferenceService: RESET (of the level, or of
 * the whole game), what counts as an action, the state and the levels completed are the service's own,
 * read from its frame responses and its scorecard, so what the player sees is what an agent's
 * scorecard would show. This class only turns those answers into grids and sentences. The game is one
 * of arcbench's own (answered at once, startable at any level) or an official one of a games folder
 * (its engine in a Python host answers later, from its first level).
 */
import {
  actionName,
  CLICK_ACTION_ID,
  isApiError,
  latestGrid,
  type FrameResponse,
  type GameAction,
  type GameActionId,
  type Grid,
} from '../../protocol/index.ts';
import { ReferenceService } from '../../reference/index.ts';
import type { PuzzleGame } from '../../games/engine/puzzleGame.ts';
import type { GameInfo, HostedGame } from '../../games/types.ts';
import { gameFromLevel, type GameFromLevel } from './gameFromLevel.ts';

/** The one key of the private service; it answers nobody else. */
const PLAYER_KEY = 'player';

export interface HandStep {
  /** Grids to show in order: an animation, then the current look. */
  readonly frames: readonly Grid[];
  /** What happened, as a sentence ('' when there is nothing to say). */
  readonly message: string;
  /** A word of caution about the action sent ('' when none). */
  readonly warning: string;
}

export interface HandStatus {
  /** 1-based number of the level on screen, out of `levelCount`. */
  readonly levelNumber: number;
  readonly levelCount: number;
  readonly state: FrameResponse['state'];
  /** Levels completed in this run (since the last full restart). */
  readonly levelsCompleted: number;
  /** Counted actions and level resets of every run, as the scorecard sums them. */
  readonly actions: number;
  readonly resets: number;
  /** The scorecard's score of this game: its best run. */
  readonly score: number;
  /** Steps on this level and the level's step budget: arcbench's own games have one, official ones not. */
  readonly steps: { readonly taken: number; readonly budget: number } | undefined;
  /** The level's human baseline, where the game's metadata gives one. */
  readonly baseline: number | undefined;
}

/** The game a session serves: one of ours from a level, or an official one. */
type ServedGame = { readonly kind: 'ours'; readonly game: GameFromLevel; readonly levels: number } | { readonly kind: 'official'; readonly game: HostedGame };

export class HandSession {
  private readonly service: ReferenceService;
  private readonly cardId: string;
  /** The service's last answer; the first is the session's RESET (#started), before anyone reads it. */
  private latest!: FrameResponse;

  private constructor(
    private readonly served: ServedGame,
    /** The game's own info (all its levels' baselines). */
    readonly info: GameInfo,
    readonly firstLevel: number,
  ) {
    // A person may pause as long as they like: the card never closes by itself.
    this.service = new ReferenceService({ games: [served.game], idleCloseMs: Infinity, maxOpenMs: Infinity });
    this.cardId = this.service.openScorecard(PLAYER_KEY, { tags: ['human'] }).card_id;
  }

  /** One of arcbench's own games, from level `firstLevel` (0-based). */
  static async ours(game: PuzzleGame<unknown, unknown>, firstLevel = 0): Promise<HandSession> {
    const served = { kind: 'ours', game: gameFromLevel(game, firstLevel), levels: game.levels.length } as const;
    return new HandSession(served, game.info, firstLevel).#started();
  }

  /** An official game of a games folder, from its first level. */
  static async official(game: HostedGame): Promise<HandSession> {
    return new HandSession({ kind: 'official', game }, game.info, 0).#started();
  }

  async #started(): Promise<HandSession> {
    this.latest = await this.service.commandOrPromise(PLAYER_KEY, 'RESET', { game_id: this.info.id, card_id: this.cardId });
    return this;
  }

  /** The current look. */
  get grid(): Grid {
    return latestGrid(this.latest);
  }

  /** The game's actions, as the service lists them. */
  get availableActions(): readonly GameActionId[] {
    return this.latest.available_actions;
  }

  status(): HandStatus {
    const environment = this.service.getScorecard(PLAYER_KEY, this.cardId).environments[0];
    const levelCount = this.served.kind === 'ours' ? this.served.levels : this.latest.win_levels;
    const levelIndex = Math.min(this.firstLevel + this.latest.levels_completed, levelCount - 1);
    return {
      levelNumber: levelIndex + 1,
      levelCount,
      state: this.latest.state,
      levelsCompleted: this.latest.levels_completed,
      actions: environment?.actions ?? 0,
      resets: environment?.resets ?? 0,
      score: environment?.score ?? 0,
      steps: this.#steps(),
      // One baseline per level, and levelIndex is a level's (an official game may list fewer).
      baseline: this.info.baselineActions[levelIndex],
    };
  }

  #steps(): HandStatus['steps'] {
    if (this.served.kind !== 'ours') return undefined;
    const play = this.served.game.currentPlay;
    return { taken: play?.stepsTaken ?? 0, budget: play?.stepBudget ?? 0 };
  }

  /** RESET: the service restarts the level (one counted action) or, right after a start, the whole game. */
  async reset(): Promise<HandStep> {
    try {
      this.latest = await this.service.commandOrPromise(PLAYER_KEY, 'RESET', { game_id: this.info.id, guid: this.latest.guid });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { frames: [], message: error.message, warning: '' };
    }
    const message = this.latest.full_reset
      ? `full restart: back to ${this.firstLevel === 0 ? 'the first level' : `level ${this.firstLevel + 1}`}`
      : 'level restarted (r again restarts the game)';
    return { frames: this.latest.frame, message, warning: '' };
  }

  /** A game action; one the service refuses (after WIN or GAME_OVER) changes nothing and says why. */
  async act(action: GameAction): Promise<HandStep> {
    const before = this.latest;
    const body =
      action.id === CLICK_ACTION_ID ? { game_id: this.info.id, guid: before.guid, x: action.x, y: action.y } : { game_id: this.info.id, guid: before.guid };
    try {
      this.latest = await this.service.commandOrPromise(PLAYER_KEY, actionName(action.id), body);
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { frames: [], message: refusal(before.state, error.message), warning: '' };
    }
    return { frames: this.latest.frame, message: this.outcome(before), warning: this.caution(action.id) };
  }

  private outcome(before: FrameResponse): string {
    const after = this.latest;
    if (after.state === 'WIN') return 'every level completed: you win';
    if (after.state === 'GAME_OVER') {
      const steps = this.#steps();
      const outOfSteps = steps !== undefined && steps.taken >= steps.budget;
      return `${outOfSteps ? 'out of steps' : 'lost'}: game over (r retries the level)`;
    }
    if (after.levels_completed > before.levels_completed) return `level ${this.firstLevel + after.levels_completed} completed`;
    return '';
  }

  /** The service takes any action id and counts it; a person should hear when the game has no use for it. */
  private caution(id: GameActionId): string {
    const actions = this.latest.available_actions;
    if (actions.includes(id)) return '';
    const list = actions.map(actionName).join(' ');
    const what = id === CLICK_ACTION_ID ? `this game takes no clicks (its actions: ${list})` : `${actionName(id)} is not among this game's actions (${list})`;
    return `${what}; sent anyway, it counts as an action`;
  }
}

/** Why the service refused an action, in the player's words where the state explains it. */
function refusal(state: FrameResponse['state'], serviceMessage: string): string {
  if (state === 'WIN') return 'not taken, the game is won: r plays it again, q quits';
  if (state === 'GAME_OVER') return 'not taken, the game is over: r retries the level, q quits';
  return serviceMessage;
}
