/**
 * What one model call that went through the gateway was: its tokens, as the provider's answer counts
 * them, and its transcript (what was sent, what came back). Three wire shapes are read: OpenAI's Chat
 * Completions, OpenAI's Responses and Anthropic's Messages; a streamed answer is first put back
 * together into the answer it streamed (streamedAnswer.ts).
 */
import type { ModelCallRequest, ModelCallResponse } from '../transcript.ts';

export type WireApi = 'chat' | 'responses' | 'anthropic';

/** Tokens as the usage record counts them: cached a part of input, reasoning a part of output. */
export interface CallTokens {
  readonly model: string;
  readonly input_tokens: number;
  readonly cached_input_tokens: number;
  /** Input written to Anthropic's prompt cache (a part of input_tokens, billed at cache_write). */
  readonly cache_write_tokens: number;
  readonly reasoning_tokens: number;
  readonly output_tokens: number;
}

type Json = Record<string, unknown>;

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0);
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** The API a path of the gateway speaks, from the path the SDK asked for. */
export function wireApiOf(route: 'openai' | 'anthropic', path: string): WireApi | undefined {
  if (route === 'anthropic') return /\/messages$/.test(path) ? 'anthropic' : undefined;
  if (/\/chat\/completions$/.test(path)) return 'chat';
  if (/\/responses$/.test(path)) return 'responses';
  return undefined;
}

/** The tokens of an answer, or undefined when it holds no usage (nothing can be counted). */
export function tokensOf(api: WireApi, answer: Json, requestedModel: string): CallTokens | undefined {
  const usage = answer.usage;
  if (usage === null || typeof usage !== 'object') return undefined;
  const u = obj(usage);
  const model = typeof answer.model === 'string' && answer.model !== '' ? answer.model : requestedModel;
  if (api === 'chat') {
    return tokens(
      model,
      num(u.prompt_tokens),
      num(obj(u.prompt_tokens_details).cached_tokens),
      0,
      num(obj(u.completion_tokens_details).reasoning_tokens),
      num(u.completion_tokens),
    );
  }
  if (api === 'responses') {
    return tokens(
      model,
      num(u.input_tokens),
      num(obj(u.input_tokens_details).cached_tokens),
      0,
      num(obj(u.output_tokens_details).reasoning_tokens),
      num(u.output_tokens),
    );
  }
  // Anthropic counts the cached and the cache-written input apart from input_tokens.
  const read = num(u.cache_read_input_tokens);
  const written = num(u.cache_creation_input_tokens);
  return tokens(model, num(u.input_tokens) + read + written, read, written, 0, num(u.output_tokens));
}

function tokens(model: string, input: number, cached: number, written: number, reasoning: number, output: number): CallTokens {
  return { model, input_tokens: input, cached_input_tokens: cached, cache_write_tokens: written, reasoning_tokens: reasoning, output_tokens: output };
}

/** What was sent, as a transcript keeps it: the conversation, the tools, the other parameters. */
export function requestOf(api: WireApi, body: Json): ModelCallRequest {
  const { messages, input, instructions, system, tools, functions, ...params } = body;
  const sentTools = Array.isArray(tools) ? tools : Array.isArray(functions) ? functions : undefined;
  const conversation =
    api === 'responses'
      ? { input: typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [] }
      : { messages: Array.isArray(messages) ? messages : [] };
  const apart = api === 'anthropic' ? system : instructions;
  return { ...conversation, ...(apart === undefined ? {} : { instructions: apart }), ...(sentTools === undefined ? {} : { tools: sentTools }), params };
}

/** What came back, as a transcript keeps it: the reply's text or blocks, its tool calls, its id. */
export function responseOf(api: WireApi, answer: Json): ModelCallResponse {
  const id = typeof answer.id === 'string' ? { id: answer.id } : {};
  if (api === 'chat') {
    const message = obj(obj((answer.choices as unknown[] | undefined)?.[0]).message);
    // The legacy `function_call` (the official LLM template's) is kept as the one tool call it is.
    const calls = Array.isArray(message.tool_calls)
      ? message.tool_calls
      : message.function_call
        ? [{ type: 'function', function: message.function_call }]
        : undefined;
    return { content: message.content ?? null, ...(calls === undefined ? {} : { tool_calls: calls }), ...id };
  }
  if (api === 'responses') {
    const output = Array.isArray(answer.output) ? answer.output : [];
    const text = output
      .flatMap((item) => (Array.isArray(obj(item).content) ? (obj(item).content as unknown[]) : []))
      .filter((part) => obj(part).type === 'output_text');
    return { content: text.map((part) => obj(part).text).join(''), output, ...id };
  }
  const blocks = Array.isArray(answer.content) ? answer.content : [];
  const toolUses = blocks.filter((block) => obj(block).type === 'tool_use');
  return { content: blocks.filter((block) => obj(block).type !== 'tool_use'), ...(toolUses.length > 0 ? { tool_calls: toolUses } : {}), ...id };
}
