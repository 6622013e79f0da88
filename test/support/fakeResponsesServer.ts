/**
 * A fake OpenAI Responses API for tests (POST /v1/responses and /v1/responses/compact), validating
 * every request against the request types of the `openai` SDK (`openai/resources/responses`): an
 * unknown or malformed field is a 400 naming it. It keeps what the real service keeps: stored
 * responses for `previous_response_id` (none with `store: false`), the encrypted reasoning it issued
 * (a replayed item must come back with it unchanged), and the tool calls each function_call_output
 * answers, and the reasoning item each function_call it issued came with: replaying such a call without
 * that reasoning item is the 400 OpenAI gives reasoning models ("Item 'fc_…' of type 'function_call' was
 * provided without its required 'reasoning' item: 'rs_…'.", hit by many clients: mastra-ai/mastra#8738,
 * 0xPlaygrounds/rig#751, laravel/ai#1052). It answers only what was asked: a reasoning item's summary is
 * empty unless the request set `reasoning.summary` ("This output will not be included unless you
 * explicitly opt in to including reasoning summaries", platform.openai.com/docs/guides/reasoning#reasoning-summaries).
 * Input tokens are counted as 4 characters a token over the whole context (tools and
 * instructions first, then every item), and cached as OpenAI documents its automatic prompt cache:
 * the longest prefix seen before, from 1,024 tokens on, in steps of 128.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FakeToolCall } from './fakeModelServer.ts';
import { AutomaticPrefixCache, type FakeApi, startFakeApi, tokensOf } from './fakeApiServer.ts';

export interface ResponsesAnswer {
  toolCalls?: FakeToolCall[];
  text?: string;
  refusal?: string;
  /** A reasoning item with this summary first (its encrypted content when the request includes it). */
  reasoning?: string;
  /** Output tokens; default: the output's characters over 4, plus the reasoning tokens. */
  outputTokens?: number;
  /** Default: the reasoning summary's characters over 4, times 10 (models think more than they summarise). */
  reasoningTokens?: number;
  model?: string;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface FakeResponsesServer extends FakeApi<ResponsesAnswer> {
  /** The usage of every answer sent (responses and compactions), in order. */
  readonly usages: Array<{ index: number; kind: 'response' | 'compaction'; id: string; usage: ResponsesUsage }>;
}

const anything = z.unknown().optional();
const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string(), prompt_cache_breakpoint: anything });
const inputImage = z.strictObject({
  type: z.literal('input_image'),
  detail: z.enum(['low', 'high', 'auto', 'original']),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  prompt_cache_breakpoint: anything,
});
const outputText = z.strictObject({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: anything });
const refusal = z.strictObject({ type: z.literal('refusal'), refusal: z.string() });
const status = z.enum(['in_progress', 'completed', 'incomplete']).nullish();
const message = z.strictObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [inputText, inputImage, outputText, refusal]))]),
  id: z.string().optional(),
  status,
  phase: anything,
});
const functionCall = z.strictObject({
  type: z.literal('function_call'),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: z.string().optional(),
  status,
  caller: anything,
  namespace: z.string().optional(),
});
const functionCallOutput = z.strictObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.unknown())]),
  id: z.string().nullish(),
  status,
  caller: anything,
});
const reasoning = z.strictObject({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(z.strictObject({ type: z.literal('summary_text'), text: z.string() })),
  content: z.array(z.strictObject({ type: z.literal('reasoning_text'), text: z.string() })).optional(),
  encrypted_content: z.string().nullish(),
  status,
});
const compaction = z.strictObject({
  type: z.literal('compaction'),
  encrypted_content: z.string(),
  id: z.string().nullish(),
  created_by: z.string().optional(),
});
const inputItem = z.union([message, functionCall, functionCallOutput, reasoning, compaction]);
const functionTool = z.strictObject({
  type: z.literal('function'),
  name: z.string(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
  strict: z.boolean().nullable(),
  description: z.string().nullish(),
  allowed_callers: anything,
  defer_loading: z.boolean().optional(),
  output_schema: anything,
});

/** ResponseCreateParamsNonStreaming, field by field. */
const createSchema = z.strictObject({
  model: z.string(),
  input: z.union([z.string(), z.array(inputItem)]).optional(),
  instructions: z.string().nullish(),
  tools: z.array(functionTool).optional(),
  tool_choice: anything,
  previous_response_id: z.string().nullish(),
  store: z.boolean().nullish(),
  include: z.array(z.enum(['reasoning.encrypted_content', 'message.output_text.logprobs', 'message.input_image.image_url'])).nullish(),
  reasoning: z
    .strictObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      generate_summary: anything,
      context: anything,
      mode: anything,
    })
    .nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().nullish(),
  max_output_tokens: z.int().positive().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  context_management: z.array(z.strictObject({ type: z.string(), compact_threshold: z.number().nullish() })).nullish(),
  stream: z.literal(false).nullish(),
  background: anything,
  conversation: anything,
  metadata: anything,
  moderation: anything,
  prompt: anything,
  prompt_cache_key: anything,
  prompt_cache_options: anything,
  prompt_cache_retention: anything,
  safety_identifier: anything,
  service_tier: anything,
  stream_options: anything,
  text: anything,
  top_logprobs: anything,
  truncation: anything,
  user: anything,
});

/** ResponseCompactParams. */
const compactSchema = z.strictObject({
  model: z.string(),
  input: z.union([z.string(), z.array(inputItem)]).nullish(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().nullish(),
  prompt_cache_key: anything,
  prompt_cache_options: anything,
  prompt_cache_retention: anything,
  service_tier: anything,
});

type Item = { type?: string; [key: string]: unknown };

export async function startFakeResponsesServer(): Promise<FakeResponsesServer> {
  const stored = new Map<string, Item[]>();
  const issuedReasoning = new Map<string, string>();
  /** The reasoning item each function_call item (by id) was issued after. */
  const reasoningOfCall = new Map<string, string>();
  const prefixCache = new AutomaticPrefixCache();
  const usages: FakeResponsesServer['usages'] = [];
  let counter = 0;

  const itemsOf = (body: { input?: string | Item[]; previous_response_id?: string | null }): Item[] => {
    const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
    return [...(body.previous_response_id ? (stored.get(body.previous_response_id) ?? []) : []), ...input];
  };

  /** Input tokens and the part of them served from the prompt cache. */
  const inputUsage = (head: unknown, items: readonly Item[]) => {
    return prefixCache.measure(JSON.stringify(head) + items.map((item) => JSON.stringify(item)).join(''));
  };

  /** A function_call replayed without the reasoning item it was issued with, or undefined. */
  const orphanCall = (items: readonly Item[]): string | undefined => {
    const seen = new Set<unknown>();
    for (const item of items) {
      if (item.type === 'reasoning') seen.add(item.id);
      if (item.type !== 'function_call') continue;
      const needed = reasoningOfCall.get(String(item.id));
      if (needed !== undefined && !seen.has(needed))
        return `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${needed}'.`;
    }
    return undefined;
  };

  const check = (body: { previous_response_id?: string | null; input?: string | Item[] }): string | undefined => {
    if (body.previous_response_id && !stored.has(body.previous_response_id)) return `Previous response with id '${body.previous_response_id}' not found.`;
    const items = itemsOf(body);
    const orphan = orphanCall(items);
    if (orphan !== undefined) return orphan;
    const calls = new Set(items.filter((item) => item.type === 'function_call').map((item) => item.call_id));
    const storedIds = new Set([...stored.values()].flat().map((item) => item.id));
    for (const item of Array.isArray(body.input) ? body.input : []) {
      if (item.type === 'function_call_output' && !calls.has(item.call_id))
        return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
      if (item.type !== 'reasoning') continue;
      const issued = issuedReasoning.get(String(item.id));
      if (item.encrypted_content ? issued !== item.encrypted_content : !storedIds.has(item.id))
        return `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
    }
    return undefined;
  };

  const outputOf = (answer: ResponsesAnswer, asked: { encrypted: boolean; summary: boolean }, n: number): Item[] => {
    const output: Item[] = [];
    const { encrypted } = asked;
    if (answer.reasoning !== undefined) {
      const summary = asked.summary ? [{ type: 'summary_text', text: answer.reasoning }] : [];
      const item: Item = { type: 'reasoning', id: `rs_${n}`, summary };
      if (encrypted) {
        item.encrypted_content = `gAAAA${createHash('sha256').update(`${n}:${answer.reasoning}`).digest('base64')}`.repeat(8);
        issuedReasoning.set(`rs_${n}`, item.encrypted_content as string);
      }
      output.push(item);
    }
    const content = [
      ...(answer.text === undefined ? [] : [{ type: 'output_text', text: answer.text, annotations: [] }]),
      ...(answer.refusal === undefined ? [] : [{ type: 'refusal', refusal: answer.refusal }]),
    ];
    if (content.length > 0) output.push({ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content });
    (answer.toolCalls ?? []).forEach((call, i) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      if (answer.reasoning !== undefined) reasoningOfCall.set(`fc_${n}_${i}`, `rs_${n}`);
      output.push({ type: 'function_call', id: `fc_${n}_${i}`, call_id: `call_${n}_${i}`, name: call.name, arguments: args, status: 'completed' });
    });
    return output;
  };

  const usageOf = (input: { total: number; cached: number }, outputTokens: number, reasoningTokens: number): ResponsesUsage => ({
    input_tokens: input.total,
    input_tokens_details: { cached_tokens: input.cached },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: input.total + outputTokens,
  });

  const server = await startFakeApi<ResponsesAnswer>({
    prefix: '/v1',
    errorBody: (statusCode, text) => ({
      error: { message: text, type: statusCode === 400 ? 'invalid_request_error' : 'server_error', param: null, code: null },
    }),
    routes: [
      {
        path: '/responses',
        schema: createSchema,
        check,
        scripted: true,
        answer(body, answer, index) {
          const n = ++counter;
          const items = itemsOf(body);
          const input = inputUsage({ tools: body.tools ?? [], instructions: body.instructions ?? null }, items);
          const asked = { encrypted: (body.include ?? []).includes('reasoning.encrypted_content'), summary: Boolean(body.reasoning?.summary) };
          const output = outputOf(answer, asked, n);
          const reasoningTokens = answer.reasoningTokens ?? (answer.reasoning === undefined ? 0 : tokensOf(answer.reasoning) * 10);
          const outputTokens = answer.outputTokens ?? tokensOf(JSON.stringify(output.filter((item) => item.type !== 'reasoning'))) + reasoningTokens;
          const usage = usageOf(input, outputTokens, reasoningTokens);
          usages.push({ index, kind: 'response', id: `resp_${n}`, usage });
          if (body.store !== false) stored.set(`resp_${n}`, [...items, ...output]);
          const model = answer.model ?? body.model;
          return { id: `resp_${n}`, object: 'response', created_at: 1_700_000_000 + n, model, status: 'completed', output, usage, error: null };
        },
      },
      {
        path: '/responses/compact',
        schema: compactSchema,
        check,
        scripted: false,
        answer(body, _answer, index) {
          const n = ++counter;
          const items = itemsOf(body);
          const input = inputUsage({ instructions: body.instructions ?? null }, items);
          const users = items.filter((item) => (item.type === undefined || item.type === 'message') && item.role === 'user');
          const summary = `cmp_${createHash('sha256').update(JSON.stringify(items)).digest('base64')}`;
          const output = [...users, { type: 'compaction', id: `cmp_item_${n}`, encrypted_content: summary }];
          const usage = usageOf(input, 100, 0);
          usages.push({ index, kind: 'compaction', id: `cmp_${n}`, usage });
          return { id: `cmp_${n}`, object: 'response.compaction', created_at: 1_700_000_000 + n, output, usage };
        },
      },
    ],
  });
  return Object.assign(server, { usages });
}
