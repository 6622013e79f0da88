/**
 * The conversation in the agent's own words, the same for every provider: what the user side said
 * (text and frame parts), what the model replied (kept exactly as its API returned it, in `native`),
 * and the answers to its tool calls. Each provider renders this into its API's request and reads its
 * API's answer back into a ModelReply; nothing else of the agent knows a wire format.
 */
import type { ContentPart } from './frameFormats.ts';
import type { ToolCallIn, ToolSpec } from './tools.ts';

/** A model's answer to one request. */
export interface ModelReply {
  /** The visible text of the reply (null when it only called tools). */
  readonly text: string | null;
  readonly toolCalls: readonly ToolCallIn[];
  /** The model declined to answer (a refusal item or stop reason), in its words. */
  readonly refusal?: string;
  /** The reply as the API returned it, sent back unchanged in later requests (reasoning, signatures). */
  readonly native: unknown;
  /** The provider's id of the answer, where it names answers (the Responses API's response id). */
  readonly id?: string;
  /** The provider's count of the request's input tokens (cached part included); undefined when unknown. */
  readonly inputTokens: number | undefined;
}

export type Entry =
  /** What the agent tells the model: a turn, or why an answer could not be played. */
  | { readonly kind: 'user'; readonly parts: readonly ContentPart[] }
  | { readonly kind: 'reply'; readonly reply: ModelReply }
  /** Answers to the previous reply's tool calls, in their order. */
  | { readonly kind: 'tool_results'; readonly results: ReadonlyArray<{ id: string; content: string }> }
  /** What a provider's native compaction left of the turns before it (opaque, its own format). */
  | { readonly kind: 'compacted'; readonly native: unknown };

/** What one model call is asked: the stable part first (system, tools), then the conversation. */
export interface ModelRequest {
  readonly system: string;
  readonly entries: readonly Entry[];
  /** Undefined for JSON answers (servers without tool calling). */
  readonly tools: readonly ToolSpec[] | undefined;
}

/** A user entry from its text and the frame's parts: text parts joined, images kept as parts. */
export function userEntry(text: string, frame: readonly ContentPart[]): Entry {
  return { kind: 'user', parts: [{ type: 'text', text }, ...frame] };
}

/** The user entry's parts with consecutive text parts joined by newlines (one text block per run). */
export function joinedParts(parts: readonly ContentPart[]): ContentPart[] {
  const joined: ContentPart[] = [];
  for (const part of parts) {
    const previous = joined.at(-1);
    if (part.type === 'text' && previous?.type === 'text') joined[joined.length - 1] = { type: 'text', text: `${previous.text}\n${part.text}` };
    else joined.push(part);
  }
  return joined;
}
