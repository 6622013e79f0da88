/**
 * A streamed answer (server-sent events) as the gateway sees it go by: cut into events as its bytes
 * arrive (each passed on at once), then put back together into the answer it streamed, whose usage
 * comes from the stream's last events (Chat Completions' usage chunk, Responses' response.completed,
 * Anthropic's message_start and message_delta).
 */
import type { WireApi } from './callFigures.ts';

export interface SseEvent {
  /** The event's bytes as they came, its blank line included: what is passed on. */
  readonly raw: string;
  /** Its `data:` lines joined, parsed when JSON (the `[DONE]` sentinel and the like stay text). */
  readonly data: unknown;
}

/** Cuts a stream's text into whole events; a part event waits for the rest of its bytes. */
export class SseReader {
  #pending = '';

  take(text: string): SseEvent[] {
    this.#pending += text;
    const events: SseEvent[] = [];
    for (let end = blankLine(this.#pending); end !== undefined; end = blankLine(this.#pending)) {
      const raw = this.#pending.slice(0, end.at + end.length);
      this.#pending = this.#pending.slice(end.at + end.length);
      events.push({ raw, data: dataOf(raw) });
    }
    return events;
  }

  /** What is left when the stream ends (an event without its blank line). */
  rest(): string {
    return this.#pending;
  }
}

function blankLine(text: string): { at: number; length: number } | undefined {
  const match = /\r?\n\r?\n/.exec(text);
  return match === null ? undefined : { at: match.index, length: match[0].length };
}

function dataOf(raw: string): unknown {
  const data = raw
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: events of three providers, read field by field with optional chaining
type Json = Record<string, any>;

/** The answer a stream of events carried, in the shape the same call unstreamed answers with. */
export function streamedAnswer(api: WireApi, events: readonly unknown[]): Json {
  const objects = events.filter((event): event is Json => event !== null && typeof event === 'object');
  if (api === 'responses') return (objects.findLast((event) => event.type === 'response.completed')?.response as Json | undefined) ?? {};
  return api === 'chat' ? chatAnswer(objects) : anthropicAnswer(objects);
}

function chatAnswer(chunks: readonly Json[]): Json {
  let content: string | null = null;
  const toolCalls: Json[] = [];
  let functionCall: Json | undefined;
  for (const chunk of chunks) {
    const delta: Json = chunk.choices?.[0]?.delta ?? {};
    if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
    for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const at = part.index ?? 0;
      toolCalls[at] ??= { id: part.id, type: 'function', function: { name: '', arguments: '' } };
      const call = toolCalls[at]!;
      if (part.id) call.id = part.id;
      call.function.name += part.function?.name ?? '';
      call.function.arguments += part.function?.arguments ?? '';
    }
    if (delta.function_call) {
      functionCall ??= { name: '', arguments: '' };
      functionCall.name += delta.function_call.name ?? '';
      functionCall.arguments += delta.function_call.arguments ?? '';
    }
  }
  const message = {
    role: 'assistant',
    content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(functionCall ? { function_call: functionCall } : {}),
  };
  const last = chunks.at(-1) ?? {};
  return { id: chunks[0]?.id, model: chunks[0]?.model, choices: [{ index: 0, message }], usage: chunks.findLast((chunk) => chunk.usage)?.usage ?? last.usage };
}

function anthropicAnswer(events: readonly Json[]): Json {
  const message: Json = { ...(events.find((event) => event.type === 'message_start')?.message ?? {}) };
  const blocks: Json[] = [];
  for (const event of events) {
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block };
    if (event.type !== 'content_block_delta') continue;
    blocks[event.index] ??= { type: 'text', text: '' };
    const block = blocks[event.index]!;
    if (event.delta?.type === 'text_delta') block.text = (block.text ?? '') + event.delta.text;
    if (event.delta?.type === 'thinking_delta') block.thinking = (block.thinking ?? '') + event.delta.thinking;
    if (event.delta?.type === 'input_json_delta') block.partial_json = (block.partial_json ?? '') + event.delta.partial_json;
  }
  for (const block of blocks) {
    if (block?.partial_json === undefined) continue;
    try {
      block.input = JSON.parse(block.partial_json);
    } catch {
      block.input = block.partial_json;
    }
    delete block.partial_json;
  }
  const outputTokens = events.findLast((event) => event.type === 'message_delta')?.usage?.output_tokens;
  return { ...message, content: blocks.filter(Boolean), usage: { ...message.usage, ...(outputTokens === undefined ? {} : { output_tokens: outputTokens }) } };
}
