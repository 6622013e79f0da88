/**
 * A person's play of one game, served by an in-process ReferenceService: RESET (of the level, or of
 * the whole game), what counts as an action, the state and the levels completed are the service's own,
 * read from its frame responses and its scorecard, so what the player sees is what an agent's
 * scorecard would show. This class only turns those answers into grids and sentences.
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
  readonly stepsTaken: number;
  readonly stepBudget: number;
  readonly baseline: number;
}

export class HandSession {
  private readonly service: ReferenceService;
  private readonly served: GameFromLevel;
  private readonly cardId: string;
  private latest: FrameResponse;

  constructor(
    readonly game: PuzzleGame<unknown, unknown>,
    readonly firstLevel = 0,
  ) {
    this.served = gameFromLevel(game, firstLevel);
    // A person may pause as long as they like: the card never closes by itself.
    this.service = new ReferenceService({ games: [this.served], idleCloseMs: Infinity, maxOpenMs: Infinity });
    this.cardId = this.service.openScorecard(PLAYER_KEY, { tags: ['human'] }).card_id;
    this.latest = this.service.command(PLAYER_KEY, 'RESET', { game_id: game.info.id, card_id: this.cardId });
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
    const play = this.served.currentPlay;
    const levelCount = this.game.levels.length;
    const levelIndex = Math.min(this.firstLevel + this.latest.levels_completed, levelCount - 1);
    return {
      levelNumber: levelIndex + 1,
      levelCount,
      state: this.latest.state,
      levelsCompleted: this.latest.levels_completed,
      actions: environment?.actions ?? 0,
      resets: environment?.resets ?? 0,
      score: environment?.score ?? 0,
      stepsTaken: play?.stepsTaken ?? 0,
      stepBudget: play?.stepBudget ?? 0,
      // One baseline per level, and levelIndex is a level's.
      baseline: this.game.info.baselineActions[levelIndex]!,
    };
  }

  /** RESET: the service restarts the level (one counted action) or, right after a start, the whole game. */
  reset(): HandStep {
    this.latest = this.service.command(PLAYER_KEY, 'RESET', { game_id: this.game.info.id, guid: this.latest.guid });
    const message = this.latest.full_reset
      ? `full restart: back to ${this.firstLevel === 0 ? 'the first level' : `level ${this.firstLevel + 1}`}`
      : 'level restarted (r again restarts the game)';
    return { frames: this.latest.frame, message, warning: '' };
  }

  /** A game action; one the service refuses (after WIN or GAME_OVER) changes nothing and says why. */
  act(action: GameAction): HandStep {
    const before = this.latest;
    const body =
      action.id === CLICK_ACTION_ID
        ? { game_id: this.game.info.id, guid: before.guid, x: action.x, y: action.y }
        : { game_id: this.game.info.id, guid: before.guid };
    try {
      this.latest = this.service.command(PLAYER_KEY, actionName(action.id), body);
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
      const play = this.served.currentPlay;
      const outOfSteps = play !== undefined && play.stepsTaken >= play.stepBudget;
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
