/**
 * One game session (docs/protocol.md §1, §4): a guid, the play of its game, and the run being counted. The
 * RESET rules live in the service; this holds the state they read and write.
 */
import type { AnyGame, GamePlay, HostedPlay } from '../games/types.ts';
import type { FrameResponse } from '../protocol/index.ts';
import type { ScorecardRecord } from './scorecardRecord.ts';
import type { RunTracker } from './run.ts';

/** A session's own state; NOT_PLAYED never applies, a session exists only once reset. */
export type SessionState = 'NOT_FINISHED' | 'WIN' | 'GAME_OVER';

export class Session {
  readonly guid: string;
  readonly game: AnyGame;
  readonly card: ScorecardRecord;
  /** Owner token of the key that started the session. */
  readonly owner: string;
  /** A hosted game's play for a hosted game (games/types.ts), else the game's own. */
  play: GamePlay | HostedPlay;
  run: RunTracker;
  state: SessionState = 'NOT_FINISHED';
  /** Counted game actions since the current level began or was last reset (decides full vs level reset). */
  actionsOnLevel = 0;
  /**
   * The answer the session gave last, set by every answer from the first RESET on where it may be
   * repeated (competitionRules.ts: a competition card by the toolkit's rules). A server's dialect may word
   * it in place (toolkitDialect.ts), so it holds what the client was told.
   */
  lastAnswer!: FrameResponse;

  /** The hosted play's commands, one after another: its engine holds one state, and answers come later. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(guid: string, game: AnyGame, card: ScorecardRecord, owner: string, play: GamePlay | HostedPlay, run: RunTracker) {
    this.guid = guid;
    this.game = game;
    this.card = card;
    this.owner = owner;
    this.play = play;
    this.run = run;
  }

  /** Runs `command` once every command before it on this session has settled. */
  serially<T>(command: () => Promise<T>): Promise<T> {
    const result = this.queue.then(command);
    this.queue = result.catch(() => {});
    return result;
  }
}
