/**
 * The llm agent's snapshot (`snapshot()`/`restore()`, for checkpoints): plain JSON, each grid as
 * base64 of its 4,096 cells. The conversation is kept as sent, replies with their native form
 * (encrypted reasoning items, thinking blocks and their signatures), so a restored agent sends the very
 * request the uninterrupted one would.
 */
import type { Grid } from 'arcbench';
import type { ContentPart } from './frameFormats.ts';
import type { ModelChoice } from './tools.ts';
import type { ModelReply } from './conversation.ts';
import type { SentAction } from './turnText.ts';

/** Bumped when the shape changes: a checkpoint of another shape is refused, and the episode played again. */
export const SAVED_VERSION = 1;

export interface SavedTurn {
  readonly text: string;
  readonly sent: string;
  readonly frame: ContentPart[];
  readonly grid: string;
  readonly reply: ModelReply;
  readonly toolReplies: ReadonlyArray<{ id: string; content: string }>;
  readonly choice: string;
}

export interface SavedMemory {
  readonly notes: string;
  readonly summary: string | null;
  /** What a native compaction returned, opaque. */
  readonly compacted: unknown;
  readonly turns: readonly SavedTurn[];
  readonly measured: { tokens: number; entries: number } | null;
}

export interface SavedBatch {
  readonly number: number;
  readonly choices: readonly ModelChoice[];
  readonly played: number;
}

export interface SavedPlayer {
  readonly version: typeof SAVED_VERSION;
  readonly memory: SavedMemory;
  readonly before: { grid: string; levelsCompleted: number } | null;
  readonly lastAction: SentAction | null;
  readonly autoReset: boolean;
  readonly batch: SavedBatch | null;
  readonly batches: number;
  readonly batchReport: string | null;
  /** The provider's own state (the Responses API's chain of response ids), or null. */
  readonly provider: unknown;
}

export function gridText(grid: Grid): string {
  return Buffer.from(grid.buffer, grid.byteOffset, grid.byteLength).toString('base64');
}

export function gridOf(text: string): Grid {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** The snapshot, checked for its shape's version; a sentence says what to do with any other. */
export function savedPlayer(state: unknown): SavedPlayer {
  const saved = state as Partial<SavedPlayer> | null;
  if (saved === null || typeof saved !== 'object' || saved.version !== SAVED_VERSION || typeof saved.memory !== 'object') {
    throw new TypeError(
      `llm restore: the snapshot is not one of this version's (expected an object with version ${SAVED_VERSION}); play the episode again from RESET`,
    );
  }
  return saved as SavedPlayer;
}
