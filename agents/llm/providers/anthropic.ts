/**
 * `api: anthropic`: Anthropic's Messages API (and servers that implement it) through the official
 * `@anthropic-ai/sdk` (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL). The conversation is the agent's memory,
 * sent whole each call with the model's replies exactly as they came: thinking blocks (extended
 * thinking, `thinking_budget`) go back unchanged with their signatures, before the tool_use they led
 * to, and the answers to tool calls lead the next user message, as the API requires.
 *
 * `compaction: native` sends the conversation with the `compaction` parameter (the compact-2026-09-04
 * beta): the answer is one signed compaction block, which goes first in every later request, unchanged,
 * in place of the turns it summarises. Those later requests go through the SDK's beta endpoint with the
 * beta named (the `anthropic-beta` header): the GA API does not know the block. The compaction request
 * carries the same breakpoints as an answer's, so it reads the conversation from the cache.
 *
 * Anthropic caches only at marked breakpoints (at most 4): the last tool and the system prompt (the
 * stable prefix), the previous turn's last block (read back from the cache written by the call
 * before), and the final block (written for the next call). What changes comes last.
 */
import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlock,
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { BetaCompactionBlock, BetaMessage, MessageCreateParamsNonStreaming as BetaCreateParams } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ModelCallTranscript } from 'arcbench';
import type { ContentPart } from '../frameFormats.ts';
import type { Entry, ModelReply, ModelRequest } from '../conversation.ts';
import { joinedParts } from '../conversation.ts';
import { MalformedAnswer, ModelClient } from './modelClient.ts';
import { oncePerObject } from '../oncePerObject.ts';
import type { Provider, ProviderSettings } from './provider.ts';
import { modelTransport } from './transport.ts';
import type { UsageFigures } from './usage.ts';

type Body = MessageCreateParamsNonStreaming;
/** The beta that brings the `compaction` parameter: a request that returns one signed compaction block. */
const COMPACTION_BETA = 'compact-2026-09-04';

/** Reply length when max_output_tokens is not given (the API requires one), besides the thinking budget. */
const DEFAULT_MAX_TOKENS = 4_096;
const BREAKPOINT = { type: 'ephemeral' } as const;

function checkedMessage(value: unknown): Message {
  const answer = value as { type?: unknown; content?: unknown } | null;
  if (answer === null || typeof answer !== 'object' || answer.type !== 'message' || !Array.isArray(answer.content)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    throw new MalformedAnswer(`the answer is not a message: ${String(text).slice(0, 200)}`);
  }
  return value as Message;
}

/** Every input token of the request: Anthropic's input_tokens are only the part neither read from nor written to the cache. */
function allInput(message: Message): number | undefined {
  const usage = message.usage;
  if (usage === undefined || usage === null) return undefined;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

function usageOf(message: Message, body: Body): UsageFigures {
  const usage = message.usage;
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  return {
    model: message.model || body.model,
    input_tokens: allInput(message) ?? 0,
    cached_input_tokens: read,
    cache_write_tokens: written,
    reasoning_tokens: usage?.output_tokens_details?.thinking_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    ...(usage === undefined || usage === null ? { counted: false } : {}),
  };
}

function blockOf(part: ContentPart): ContentBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const data = part.image_url.url.replace(/^data:image\/png;base64,/, '');
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
}

/** A reply block as the API wants it back: thinking with its signature unchanged, no response-only fields. */
function paramOf(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case 'thinking':
      return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: block.data }];
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
    default:
      return [];
  }
}

const blocksOf = oncePerObject((entry: Entry): { role: 'user' | 'assistant'; blocks: readonly ContentBlockParam[] } => {
  switch (entry.kind) {
    case 'user':
      return { role: 'user', blocks: joinedParts(entry.parts).map(blockOf) };
    case 'reply':
      return { role: 'assistant', blocks: (entry.reply.native as ContentBlock[]).flatMap(paramOf) };
    case 'tool_results':
      return { role: 'user', blocks: entry.results.map((result) => ({ type: 'tool_result', tool_use_id: result.id, content: result.content })) };
    case 'compacted':
      // The compaction block goes first in the conversation, unchanged, in place of the turns it summarises.
      return { role: 'user', blocks: [entry.native as ContentBlockParam] };
  }
});

/** The entries as alternating messages: tool results and the next turn's text join one user message. */
function messagesOf(entries: readonly Entry[]): MessageParam[] {
  const messages: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  for (const entry of entries) {
    const { role, blocks } = blocksOf(entry);
    const previous = messages.at(-1);
    if (previous?.role === role) previous.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  }
  return messages;
}

/** Marks the last block of the final message and of the user message before the final reply. */
function markBreakpoints(messages: MessageParam[]): void {
  const users = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
  for (const index of users.slice(-2)) {
    const content = messages[index]!.content as ContentBlockParam[];
    const last = content.at(-1);
    if (last !== undefined && last.type !== 'thinking' && last.type !== 'redacted_thinking')
      content[content.length - 1] = { ...last, cache_control: BREAKPOINT };
  }
}

function toolsOf(request: ModelRequest): { tools?: Tool[] } {
  if (request.tools === undefined) return {};
  const tools: Tool[] = request.tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    input_schema: tool.function.parameters as Tool.InputSchema,
  }));
  const last = tools.at(-1);
  if (last !== undefined) tools[tools.length - 1] = { ...last, cache_control: BREAKPOINT };
  return { tools };
}

function replyOf(message: Message): ModelReply {
  const texts = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  const text = texts.length > 0 ? texts.join('\n') : null;
  return {
    text,
    toolCalls: message.content.flatMap((block) =>
      block.type === 'tool_use' ? [{ id: block.id, function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } }] : [],
    ),
    ...(message.stop_reason === 'refusal' ? { refusal: text ?? 'refused' } : {}),
    native: message.content,
    inputTokens: allInput(message),
  };
}

/**
 * A call as its transcript keeps it: system, messages and tools as sent, the other parameters
 * (thinking included); the reply's text, its tool_use blocks as tool calls (in chat form, as the viewer
 * and the export read them), its thinking as the reasoning (a redacted block is noted, its data is
 * not readable), and the blocks as they came.
 */
function transcriptOf(
  body: Body | BetaCreateParams,
  content: ReadonlyArray<ContentBlock | BetaMessage['content'][number]>,
): Omit<ModelCallTranscript, 'usage'> {
  const { system, messages, tools, ...params } = body as Body;
  const reply = replyOf({ content } as Message);
  const reasoning = content.flatMap((block) => {
    if (block.type === 'thinking') return [block.thinking];
    return block.type === 'redacted_thinking' ? ['[redacted thinking: encrypted by the provider]'] : [];
  });
  const compaction = content.find((block): block is BetaCompactionBlock => block.type === 'compaction');
  return {
    request: { messages: [...messages], ...(system === undefined ? {} : { instructions: system }), ...(tools ? { tools: [...tools] } : {}), params },
    response: {
      content: compaction?.content ?? reply.text,
      ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls.map((call) => ({ type: 'function', ...call })) } : {}),
      ...(reasoning.length > 0 ? { reasoning: reasoning.join('\n') } : {}),
      output: [...content],
    },
  };
}

/**
 * The SDK's OpenTelemetry spans, off unless ANTHROPIC_OPEN_TELEMETRY asks for them (the SDK then reads
 * it as documented). Each call's transcript already keeps what a span would, and the spans cost
 * 0.1–0.25 ms of the episode's thread per call even when nothing collects them (`npm run bench -- llm`).
 */
export function openTelemetryOption(): false | undefined {
  return process.env.ANTHROPIC_OPEN_TELEMETRY === undefined ? false : undefined;
}

/** The SDK's clients for answers and for native compactions (a beta), behind our retries, cache and usage. */
function anthropicClients(settings: ProviderSettings) {
  const baseUrl = settings.baseUrl ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  const apiKey = settings.apiKey ?? process.env.ANTHROPIC_API_KEY ?? '';
  const transport = modelTransport(settings.requestTimeoutMs);
  const sdk = new Anthropic({
    apiKey,
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: settings.requestTimeoutMs,
    logLevel: 'off',
    ...transport.options,
    openTelemetry: openTelemetryOption(),
  });
  const common = { baseUrl, keySource: 'ANTHROPIC_API_KEY or params.api_key', errors: Anthropic };
  const client = new ModelClient<Body, Message>(
    {
      ...common,
      send: (body, signal) => sdk.messages.create(body, { signal }),
      check: checkedMessage,
      usage: usageOf,
      transcript: (body, message) => transcriptOf(body, message.content),
    },
    { ...settings, apiKey },
  );
  const compactions = new ModelClient<BetaCreateParams, BetaMessage>(
    {
      ...common,
      send: (body, signal) => sdk.beta.messages.create({ ...body, betas: [COMPACTION_BETA] }, { signal }),
      check: (raw) => checkedMessage(raw) as unknown as BetaMessage,
      usage: (message, body) => usageOf(message as unknown as Message, body as unknown as Body),
      transcript: (body, message) => transcriptOf(body, message.content),
    },
    { ...settings, apiKey },
  );
  return { client, compactions, close: transport.close };
}

/** Whether a request carries the compaction beta's block, which only the beta endpoint takes. */
const carriesCompaction = (request: ModelRequest) => request.entries.some((entry) => entry.kind === 'compacted');

export function createAnthropicProvider(settings: ProviderSettings): Provider {
  const { client, compactions, close } = anthropicClients(settings);
  const budget = settings.thinkingBudget;
  const sampling = {
    model: settings.model,
    max_tokens: settings.maxOutputTokens ?? DEFAULT_MAX_TOKENS + (budget ?? 0),
  };
  const thinking: Pick<Body, 'thinking'> = settings.adaptiveThinking
    ? { thinking: { type: 'adaptive' } }
    : budget === undefined
      ? {}
      : { thinking: { type: 'enabled', budget_tokens: budget } };
  /** The request's tools, system and messages, with the cache breakpoints. */
  const conversation = (request: ModelRequest): Body => {
    const messages = messagesOf(request.entries);
    markBreakpoints(messages);
    return { ...sampling, ...toolsOf(request), system: [{ type: 'text', text: request.system, cache_control: BREAKPOINT }], messages };
  };
  return {
    async ask(request: ModelRequest): Promise<ModelReply> {
      const body: Body = { ...conversation(request), ...thinking };
      if (!carriesCompaction(request)) return replyOf(await client.complete(body, 'action'));
      // The beta's own Message has the GA fields and the beta's blocks; the reply is read the same way.
      return replyOf((await compactions.complete(body as BetaCreateParams, 'action')) as unknown as Message);
    },
    async compact(request: ModelRequest): Promise<unknown> {
      const body = { ...(conversation(request) as BetaCreateParams), compaction: { type: 'summarize' as const } };
      const message = await compactions.complete(body, 'compaction');
      const block = message.content.find((item): item is BetaCompactionBlock => item.type === 'compaction');
      if (block === undefined || !block.content) throw new Error(`the compaction request returned no compaction block (stop_reason ${message.stop_reason})`);
      return block;
    },
    async summarize(system: string, text: string): Promise<string> {
      const body: Body = { ...sampling, system, messages: [{ role: 'user', content: text }] };
      return replyOf(await client.complete(body, 'compaction')).text ?? '';
    },
    close,
  };
}
