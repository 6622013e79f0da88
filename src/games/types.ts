/**
 * The contract between games and the reference service. A `Game` is a title with its levels; `start()`
 * gives a `GamePlay`, one mutable play of it from level 1. The service owns sessions, runs, counting,
 * RESET semantics and scoring; the game owns what the grid shows, what an action does, when a level is
 * completed, and when it is lost (its per-level step budget or its own hazards).
 *
 * Games must be deterministic: the same actions from the same start give byte-identical grids.
 */
import type { GameActionId, Grid } from '../protocol/index.ts';
import type { GameTag } from '../protocol/index.ts';
import type { DownloadDate } from './downloadDate.ts';

/** What one action did to the play. */
export type StepOutcome =
  /** still on the same level */
  | 'playing'
  /** the level was completed and the play moved on to the next level */
  | 'level_completed'
  /** the last level was completed: the game is won */
  | 'won'
  /** the level was lost (budget exhausted, a hazard, a wrong move): GAME_OVER */
  | 'lost';

export interface StepResult {
  /**
   * 1..N grids, each a fresh array the caller may keep. The last is the play's current look. After
   * `level_completed` there are at least two: the old level's last look, then the new level's first.
   */
  readonly frames: readonly Grid[];
  readonly outcome: StepOutcome;
}

/** A game action as the game sees it: ACTION6 carries display coordinates 0..63. */
export interface GameInput {
  readonly id: GameActionId;
  readonly x?: number;
  readonly y?: number;
}

/** One play of a game: the state of the current level plus which level it is. */
export interface GamePlay {
  /** 0-based index of the level being played. */
  readonly levelIndex: number;
  /** The current look, as a fresh grid. */
  frame(): Grid;
  /**
   * Applies one action. Called only while the play is neither won nor lost. Any action id 1..7 is
   * accepted (an id the game does not use, or a click on nothing, changes nothing but still spends a
   * step of the level's budget). ACTION7 undoes where the game offers undo.
   */
  step(input: GameInput): StepResult;
  /** Rebuilds the current level from its pristine form (after a loss too); returns its first look. */
  resetLevel(): Grid;
}

/** The static description of a game. */
export interface GameInfo {
  /** 4 lowercase letters or digits. */
  readonly slug: string;
  /** `slug-<8 hex>`, the hex a hash of the game's definition (changes when a level changes). */
  readonly id: string;
  readonly title: string;
  /** Input kind: keyboard, click or keyboard_click. */
  readonly tags: readonly GameTag[];
  readonly defaultFps: number;
  /** The game's fixed list of action ids (1..7); not enforced by the service. */
  readonly availableActions: readonly GameActionId[];
  /** One integer per level: a first-time human's action count. Its length is the number of levels. */
  readonly baselineActions: readonly number[];
  /** What an official game's metadata.json says of it beyond the above; our own games have none. */
  readonly metadata?: GameMetadata;
}

/** metadata.json's own words: its title and its authors' tags (not input kinds), null when it has none, and its download date. */
export interface GameMetadata {
  readonly title: string | null;
  readonly tags: readonly string[] | null;
  readonly dateDownloaded: DownloadDate;
}

export interface Game {
  readonly info: GameInfo;
  /** A new play at level 1 (index 0). */
  start(): GamePlay;
}

/**
 * A game played in another process (an official arcengine game in a Python host, src/games/official/):
 * its engine keeps the whole play, RESET included, so the service asks it and keeps the counts.
 */
export interface HostedGame {
  readonly info: GameInfo;
  readonly hosted: true;
  /** A new play from the engine's first RESET, seeded as the official toolkit seeds one. */
  open(seed: number): Promise<{ play: HostedPlay; frame: HostedFrame }>;
}

/** One play of a hosted game: every call is answered later, or rejected (a game's fault, a host that died). */
export interface HostedPlay {
  step(input: GameInput): Promise<HostedFrame>;
  /** The engine's own RESET: a level reset, or a full one where the engine decides so; `levelsOnly` never full. */
  reset(levelsOnly: boolean): Promise<HostedFrame>;
  /** Frees the play on its host. */
  close(): void;
}

/** What the engine answered to one command. */
export interface HostedFrame {
  readonly frames: readonly Grid[];
  readonly state: 'NOT_FINISHED' | 'WIN' | 'GAME_OVER';
  readonly levelsCompleted: number;
  readonly winLevels: number;
  readonly availableActions: readonly GameActionId[];
  readonly fullReset: boolean;
}

/** Any game the service offers. */
export type AnyGame = Game | HostedGame;

export function isHosted(game: AnyGame): game is HostedGame {
  return (game as HostedGame).hosted === true;
}
