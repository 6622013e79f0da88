/**
 * The conversation the model sees: the system prompt, a summary of older turns, the recent turns
 * verbatim (what the model was shown and what it answered), then the current turn with its notes.
 *
 * When the next request would pass `context_tokens`, every turn but the most recent few is folded into
 * the summary by the model itself (a compaction call, whose usage the agent labels as such). Tokens are
 * counted from the provider's own figure for the last request, plus an estimate for what was added
 * since; before the first answer everything is estimated.
 */
import type OpenAI from 'openai';
import type { Grid } from 'arcbench';
import type { ContentPart } from './frameFormats.ts';

type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** Roughly 4 characters a token for English and hex grids; an image counts as a fixed amount. */
const CHARS_PER_TOKEN = 4;
const IMAGE_TOKENS = 1_100;
/** Summaries past this are cut: they are sent with every request. */
const MAX_SUMMARY_CHARS = 8_000;

export interface Turn {
  /** The turn's text without the frame (game, state, last action's result). */
  readonly text: string;
  readonly frame: ContentPart[];
  /** The frame's grid, to diff the next frame against and to redraw this one whole if needed. */
  readonly grid: Grid;
  /** The accepted reply, as the API returned it. */
  readonly reply: OpenAI.Chat.ChatCompletionAssistantMessageParam;
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

function userMessage(text: string, frame: readonly ContentPart[]): Message {
  if (frame.every((part) => part.type === 'text')) return { role: 'user', content: [text, ...frame.map((part) => (part as { text: string }).text)].join('\n') };
  return { role: 'user', content: [{ type: 'text', text }, ...frame] };
}

function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  let images = 0;
  for (const message of messages) {
    const content = (message as { content?: unknown }).content;
    if (typeof content === 'string') chars += content.length;
    for (const part of Array.isArray(content) ? (content as Array<{ type: string; text?: string }>) : []) {
      if (part.type === 'image_url') images++;
      else chars += (part.text ?? '').length;
    }
    const calls = (message as { tool_calls?: Array<{ function: { name: string; arguments: string } }> }).tool_calls;
    for (const call of calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

export class Memory {
  notes = '';
  private summary: string | undefined;
  private turns: Turn[] = [];
  /** Prompt tokens the provider counted for the last request, and how many messages it held. */
  private measured: { tokens: number; messages: number } | undefined;

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

  /** Every message of the request for the current turn. */
  messages(current: CurrentTurn): Message[] {
    const system =
      this.summary === undefined
        ? this.options.systemPrompt
        : `${this.options.systemPrompt}\n\nSummary of the earlier turns (written by you):\n${this.summary}`;
    const history = this.turns.flatMap((turn): Message[] => [
      userMessage(turn.text, turn.frame),
      turn.reply,
      ...turn.toolReplies.map((reply): Message => ({ role: 'tool', tool_call_id: reply.id, content: reply.content })),
    ]);
    const notes = `Your notes: ${this.notes === '' ? '(empty)' : `\n${this.notes}`}`;
    const text = [current.text, notes, ...(current.instructions ? [current.instructions] : [])].join('\n');
    return [{ role: 'system', content: system }, ...history, userMessage(text, current.frame)];
  }

  /** Tokens the request for `current` will take, as best known before sending it. */
  expectedTokens(current: CurrentTurn): number {
    const messages = this.messages(current);
    if (this.measured === undefined || this.measured.messages > messages.length) return estimateTokens(messages);
    return this.measured.tokens + estimateTokens(messages.slice(this.measured.messages));
  }

  /** Stores an answered turn; `promptTokens` is the provider's count for the request that got the answer. */
  record(turn: Turn, request: readonly Message[], promptTokens: number | undefined): void {
    this.turns.push(turn);
    // The request's last message (this turn's, with its notes) is rebuilt on the next request.
    this.measured = promptTokens === undefined || promptTokens <= 0 ? undefined : { tokens: promptTokens, messages: request.length };
  }

  /** True when the request for `current` would pass the context budget and older turns can be folded. */
  needsCompaction(current: CurrentTurn): boolean {
    return this.turns.length > this.options.recentTurns && this.expectedTokens(current) > this.options.contextTokens;
  }

  /** The request that asks the model to fold the older turns into the summary. */
  compactionMessages(): { messages: Message[]; fold: number } {
    const fold = this.turns.length - this.options.recentTurns;
    const transcript = this.turns
      .slice(0, fold)
      .map((turn, i) => `Turn ${i + 1}:\n${turn.text}\nYou chose: ${turn.choice}`)
      .join('\n\n');
    const content = [
      `Summary so far:\n${this.summary ?? '(none)'}`,
      `Your notes:\n${this.notes === '' ? '(empty)' : this.notes}`,
      `Turns to fold into the summary (frames left out):\n${transcript}`,
    ].join('\n\n');
    return {
      fold,
      messages: [
        {
          role: 'system',
          content:
            'You keep the memory of a game-playing agent. Write a new summary that replaces the old one and the turns given: ' +
            'what each action seems to do, rules learned, levels reached, what failed, and the plan. Plain text, at most 300 words.',
        },
        { role: 'user', content },
      ],
    };
  }

  /** Replaces the first `fold` turns by the summary the model wrote. */
  applySummary(summary: string, fold: number): void {
    const folded = this.turns.slice(0, fold);
    const fallback = folded.map((turn) => turn.choice).join('; ');
    this.summary = (summary.trim() === '' ? `${this.summary ?? ''} ${fallback}`.trim() : summary.trim()).slice(0, MAX_SUMMARY_CHARS);
    this.turns = this.turns.slice(fold);
    const first = this.turns[0];
    if (first !== undefined) this.turns[0] = { ...first, frame: this.options.wholeFrame(first.grid) };
    this.measured = undefined;
  }
}
