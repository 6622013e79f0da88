/**
 * The conversation the agent keeps: the system prompt, a summary of older turns, the recent turns
 * verbatim (what the model was shown, byte for byte, and what it answered), then the current turn.
 * A turn stays exactly as it was sent, notes included, so each request starts with the previous one:
 * providers serve that prefix from their prompt cache.
 *
 * When the next request would pass `context_tokens`, older turns are folded: every turn but the most
 * recent few into a summary the model writes (`summary`), or the whole conversation by the provider's
 * own compaction (`native`). Tokens are counted from the provider's figure for the last request, plus
 * an estimate for what was added since; before the first answer everything is estimated.
 */
import type { Grid } from 'arcbench';
import type { ContentPart } from './frameFormats.ts';
import { oncePerObject } from './oncePerObject.ts';
import { gridOf, gridText, type SavedMemory, type SavedTurn } from './savedState.ts';
import { type Entry, type ModelReply, userEntry } from './conversation.ts';

/** Roughly 4 characters a token for English and hex grids; an image counts as a fixed amount. */
const CHARS_PER_TOKEN = 4;
const IMAGE_TOKENS = 1_100;
/** Summaries past this are cut: they are sent with every request. */
const MAX_SUMMARY_CHARS = 8_000;

export interface Turn {
  /** The turn's facts without notes or frame (game, state, last action's result), for summaries. */
  readonly text: string;
  /** The turn's text as sent: facts, notes and any instructions. */
  readonly sent: string;
  readonly frame: ContentPart[];
  /** The frame's grid, to diff the next frame against and to redraw this one whole if needed. */
  readonly grid: Grid;
  /** The accepted reply, as the API returned it. */
  readonly reply: ModelReply;
  /** Answers to the reply's tool calls (none in JSON mode). */
  readonly toolReplies: ReadonlyArray<{ id: string; content: string }>;
  /** One line for summaries: what was chosen, and why. */
  readonly choice: string;
}

export interface CurrentTurn {
  readonly text: string;
  readonly frame: ContentPart[];
  /** Extra instructions for this turn only (the JSON answer format). */
  readonly instructions?: string;
}

function estimateTokens(entries: readonly Entry[]): number {
  let chars = 0;
  let images = 0;
  for (const entry of entries) {
    if (entry.kind === 'user') {
      for (const part of entry.parts) {
        if (part.type === 'text') chars += part.text.length;
        else images++;
      }
    } else if (entry.kind === 'tool_results') for (const result of entry.results) chars += result.content.length;
    else if (entry.kind === 'reply') {
      chars += entry.reply.text?.length ?? 0;
      for (const call of entry.reply.toolCalls) chars += call.function.name.length + call.function.arguments.length;
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/** The entries of one turn: what was sent, the reply, the answers to its tool calls. */
function turnEntries(turn: Turn): Entry[] {
  const entries: Entry[] = [userEntry(turn.sent, turn.frame), { kind: 'reply', reply: turn.reply }];
  if (turn.toolReplies.length > 0) entries.push({ kind: 'tool_results', results: turn.toolReplies });
  return entries;
}

export class Memory {
  notes = '';
  private summary: string | undefined;
  private compacted: Entry | undefined;
  private turns: Turn[] = [];
  /** Input tokens the provider counted for the last request, and how many entries it held. */
  private measured: { tokens: number; entries: number } | undefined;
  /** Each kept turn's saved form: turns never change once kept, so a snapshot encodes each grid once. */
  private readonly savedTurns = new WeakMap<Turn, SavedTurn>();
  /** Each kept turn's entries, the same objects on every call, so providers render each once. */
  private readonly entriesOf = oncePerObject(turnEntries);

  constructor(
    private readonly options: {
      readonly systemPrompt: string;
      readonly contextTokens: number;
      /** Turns always kept verbatim (at least 1: the next diff refers to the last frame). */
      readonly recentTurns: number;
      /** The whole frame of a grid, for a kept turn whose diff lost its base to the summary. */
      readonly wholeFrame: (grid: Grid) => ContentPart[];
    },
  ) {}

  /** The grid of the last frame the model has in view, or undefined before the first answer. */
  lastGrid(): Grid | undefined {
    return this.turns.at(-1)?.grid;
  }

  /** The system prompt, with the summary of folded turns once there is one. */
  system(): string {
    return this.summary === undefined
      ? this.options.systemPrompt
      : `${this.options.systemPrompt}\n\nSummary of the earlier turns (written by you):\n${this.summary}`;
  }

  /** The text the current turn is sent with: its facts, the notes, and its instructions, if any. */
  sentText(current: CurrentTurn): string {
    const notes = `Your notes: ${this.notes === '' ? '(empty)' : `\n${this.notes}`}`;
    return [current.text, notes, ...(current.instructions ? [current.instructions] : [])].join('\n');
  }

  /** Every entry of the request for the current turn: what is compacted, the kept turns, the turn. */
  entries(current: CurrentTurn): Entry[] {
    return [...this.history(), userEntry(this.sentText(current), current.frame)];
  }

  /** The kept conversation, without the current turn. */
  history(): Entry[] {
    return [...(this.compacted ? [this.compacted] : []), ...this.turns.flatMap(this.entriesOf)];
  }

  /** Tokens the request for `current` will take, as best known before sending it. */
  expectedTokens(current: CurrentTurn): number {
    const entries = this.entries(current);
    if (this.measured === undefined || this.measured.entries > entries.length) {
      return estimateTokens([...entries, userEntry(this.system(), [])]);
    }
    return this.measured.tokens + estimateTokens(entries.slice(this.measured.entries));
  }

  /** Stores an answered turn; `inputTokens` is the provider's count for the request that got the answer. */
  record(turn: Turn, requestEntries: number, inputTokens: number | undefined): void {
    this.turns.push(turn);
    this.measured = inputTokens === undefined || inputTokens <= 0 ? undefined : { tokens: inputTokens, entries: requestEntries };
  }

  /** True when there are more than `keep` turns, so a compaction has something to fold. */
  hasTurnsBeyond(keep: number = this.options.recentTurns): boolean {
    return this.turns.length > keep;
  }

  /** True when the request for `current` would pass the context budget and older turns can be folded. */
  needsCompaction(current: CurrentTurn, keep: number = this.options.recentTurns): boolean {
    return this.turns.length > keep && this.expectedTokens(current) > this.options.contextTokens;
  }

  /** The request that asks the model to fold the older turns into the summary. */
  compactionPrompt(): { system: string; text: string; fold: number } {
    const fold = this.turns.length - this.options.recentTurns;
    const foldedTurns = this.turns
      .slice(0, fold)
      .map((turn, i) => `Turn ${i + 1}:\n${turn.text}\nYou chose: ${turn.choice}`)
      .join('\n\n');
    const text = [
      `Summary so far:\n${this.summary ?? '(none)'}`,
      `Your notes:\n${this.notes === '' ? '(empty)' : this.notes}`,
      `Turns to fold into the summary (frames left out):\n${foldedTurns}`,
    ].join('\n\n');
    const system =
      'You keep the memory of a game-playing agent. Write a new summary that replaces the old one and the turns given: ' +
      'what each action seems to do, rules learned, levels reached, what failed, and the plan. Plain text, at most 300 words.';
    return { system, text, fold };
  }

  /** Replaces the first `fold` turns by the summary the model wrote. */
  applySummary(summary: string, fold: number): void {
    const folded = this.turns.slice(0, fold);
    const fallback = folded.map((turn) => turn.choice).join('; ');
    this.summary = (summary.trim() === '' ? `${this.summary ?? ''} ${fallback}`.trim() : summary.trim()).slice(0, MAX_SUMMARY_CHARS);
    this.turns = this.turns.slice(fold);
    this.redrawFirstFrame();
    this.measured = undefined;
  }

  /** Replaces every turn by what the provider's own compaction returned. */
  applyNative(native: unknown): void {
    this.compacted = { kind: 'compacted', native };
    this.turns = [];
    this.measured = undefined;
  }

  /** The memory as JSON, for the agent's snapshot; the arrays are new, so later changes leave it alone. */
  saved(): SavedMemory {
    return {
      notes: this.notes,
      summary: this.summary ?? null,
      compacted: this.compacted === undefined ? null : (this.compacted as { native: unknown }).native,
      turns: this.turns.map((turn) => this.savedTurn(turn)),
      measured: this.measured ?? null,
    };
  }

  /** Puts back what saved() returned. */
  restoreSaved(saved: SavedMemory): void {
    this.notes = saved.notes;
    this.summary = saved.summary ?? undefined;
    this.compacted = saved.compacted === null ? undefined : { kind: 'compacted', native: saved.compacted };
    this.turns = saved.turns.map((turn) => {
      const restored: Turn = { ...turn, grid: gridOf(turn.grid) };
      this.savedTurns.set(restored, turn);
      return restored;
    });
    this.measured = saved.measured ?? undefined;
  }

  private savedTurn(turn: Turn): SavedTurn {
    let saved = this.savedTurns.get(turn);
    if (saved === undefined) {
      saved = { ...turn, grid: gridText(turn.grid) };
      this.savedTurns.set(turn, saved);
    }
    return saved;
  }

  private redrawFirstFrame(): void {
    const first = this.turns[0];
    if (first !== undefined) this.turns[0] = { ...first, frame: this.options.wholeFrame(first.grid) };
  }
}
