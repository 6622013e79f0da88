/**
 * A fake Anthropic Messages API for tests (POST /v1/messages), validating every request against the
 * request types of `@anthropic-ai/sdk` (MessageCreateParams): an unknown or malformed field is a 400
 * naming it. It checks what the real API checks of a conversation: thinking blocks come back with the
 * signature it gave them, unchanged; with thinking on, a final assistant turn that used a tool starts
 * with its thinking; every tool_use is answered by a tool_result at the start of the next user
 * message; at most 4 cache breakpoints; a compaction block (the beta `compaction` parameter's answer,
 * signed) only first in the conversation and unchanged, and both the `compaction` parameter and a
 * compaction block only with the beta named in the `anthropic-beta` header (a beta feature is asked for
 * by that header, the SDK's `betas` option; without it the API refuses the field as an extra input). Tokens are 4 characters each, block by block in the order the
 * API reads them (tools, system, messages), and cached as Anthropic documents: a prefix is written at
 * each `cache_control` breakpoint (from 1,024 tokens on) and read back at a later request's
 * breakpoint, or within the 20 blocks before it.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FakeToolCall } from './fakeModelServer.ts';
import { type FakeApi, startFakeApi, tokensOf } from './fakeApiServer.ts';

export interface AnthropicAnswer {
  toolCalls?: FakeToolCall[];
  text?: string;
  /** A thinking block with this text first, signed. */
  thinking?: string;
  stopReason?: 'end_turn' | 'refusal' | 'max_tokens';
  outputTokens?: number;
  model?: string;
}

export interface AnthropicUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  output_tokens_details: { thinking_tokens: number };
}

export interface FakeAnthropicServer extends FakeApi<AnthropicAnswer> {
  readonly usages: Array<{ index: number; id: string; kind: 'message' | 'compaction'; usage: AnthropicUsage }>;
  /** Every compaction block it issued, as issued. */
  readonly compactionsIssued: Array<Record<string, unknown>>;
  /** Every thinking block it issued, as issued. */
  readonly thinkingIssued: Array<{ type: 'thinking'; thinking: string; signature: string }>;
}

const anything = z.unknown().optional();
const cacheControl = z.strictObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() }).nullish();
const text = z.strictObject({ type: z.literal('text'), text: z.string().min(1), cache_control: cacheControl, citations: z.array(z.unknown()).nullish() });
const image = z.strictObject({
  type: z.literal('image'),
  source: z.strictObject({ type: z.literal('base64'), media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), data: z.string() }),
  cache_control: cacheControl,
  transformations: anything,
});
const toolUse = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  cache_control: cacheControl,
  caller: anything,
  toolset_name: z.string().nullish(),
});
const toolResult = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.union([text, image]))]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
  toolset_name: z.string().nullish(),
});
const thinking = z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinking = z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() });
/** BetaCompactionBlockParam (the compact-2026-09-04 beta). */
const compaction = z.strictObject({
  type: z.literal('compaction'),
  content: z.string().min(1).nullish(),
  encrypted_content: z.string().nullish(),
  signature: z.string().nullish(),
  cache_control: cacheControl,
  tool_changes: z.array(z.unknown()).nullish(),
});
const block = z.discriminatedUnion('type', [text, image, toolUse, toolResult, thinking, redactedThinking, compaction]);
const message = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(block)]) });
const tool = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
  input_schema: z.looseObject({ type: z.literal('object') }),
  description: z.string().optional(),
  cache_control: cacheControl,
  type: z.literal('custom').nullish(),
  strict: z.boolean().optional(),
  allowed_callers: anything,
  defer_loading: z.boolean().optional(),
  eager_input_streaming: anything,
  input_examples: anything,
});

/** MessageCreateParamsNonStreaming, field by field. */
const createSchema = z.strictObject({
  model: z.string(),
  max_tokens: z.int().positive(),
  messages: z.array(message).min(1),
  system: z.union([z.string(), z.array(text)]).optional(),
  tools: z.array(tool).optional(),
  tool_choice: anything,
  thinking: z
    .union([
      z.strictObject({ type: z.literal('enabled'), budget_tokens: z.int().min(1_024), display: anything }),
      z.strictObject({ type: z.literal('disabled') }),
      z.strictObject({ type: z.literal('adaptive'), display: anything }),
    ])
    .optional(),
  stop_sequences: z.array(z.string()).optional(),
  /** Beta (compact-2026-09-04): summarise `messages` into one signed compaction block. */
  compaction: z.strictObject({ type: z.literal('summarize'), instructions: z.string().nullish() }).nullish(),
  context_management: anything,
  stream: z.literal(false).optional(),
  cache_control: cacheControl,
  container: anything,
  diagnostics: anything,
  inference_geo: anything,
  metadata: anything,
  output_config: anything,
  service_tier: anything,
  speed: anything,
  user_profile_id: anything,
  workspace_id: anything,
});

type Block = { type: string; cache_control?: unknown; [key: string]: unknown };
type Body = z.infer<typeof createSchema>;

const CACHE_MINIMUM = 1_024;
const LOOKBACK_BLOCKS = 20;
const MAX_BREAKPOINTS = 4;

const blocksOfContent = (content: string | Block[]): Block[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** Every block of the request in the order the cache reads it: tools, system, messages. */
function cacheOrder(body: Body): Block[] {
  return [
    ...((body.tools ?? []) as Block[]).map((t) => ({ ...t, type: 'tool' })),
    ...(body.system === undefined ? [] : blocksOfContent(body.system as string | Block[])),
    ...body.messages.flatMap((m) => blocksOfContent(m.content as string | Block[]).map((b) => ({ ...b, role: m.role }))),
  ];
}

/** The beta the compaction parameter and block belong to. */
const COMPACTION_BETA = 'compact-2026-09-04';

/** A beta field sent without its beta header: the GA API does not know it. */
function betaProblem(body: Body, headers: Record<string, string | string[] | undefined>): string | undefined {
  const betas = String(headers['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim());
  if (betas.includes(COMPACTION_BETA)) return undefined;
  if (body.compaction) return `compaction: Extra inputs are not permitted (the \`${COMPACTION_BETA}\` beta is not in the anthropic-beta header).`;
  for (const [i, m] of body.messages.entries()) {
    const blocks = blocksOfContent(m.content as string | Block[]);
    const j = blocks.findIndex((b) => b.type === 'compaction');
    if (j >= 0) return `messages.${i}.content.${j}: a \`compaction\` block needs the \`${COMPACTION_BETA}\` beta in the anthropic-beta header.`;
  }
  return undefined;
}

/** What the real API refuses in a conversation that is well formed field by field. */
function conversationProblem(body: Body, signed: Map<string, string>): string | undefined {
  const breakpoints = cacheOrder(body).filter((b) => b.cache_control).length;
  if (breakpoints > MAX_BREAKPOINTS) return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  if (body.thinking?.type === 'enabled' && body.max_tokens <= body.thinking.budget_tokens) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  const messages = body.messages.map((m) => ({ role: m.role, blocks: blocksOfContent(m.content as string | Block[]) }));
  if (messages[0]?.role !== 'user') return 'messages: the first message must use the "user" role.';
  const compactions = messages.flatMap((m, i) => m.blocks.flatMap((b, j) => (b.type === 'compaction' ? [{ i, j, b }] : [])));
  if (compactions.length > 1) return 'messages: more than one `compaction` block; send only the one returned last.';
  for (const { i, j, b } of compactions) {
    if (i !== 0 || j !== 0) return `messages.${i}.content.${j}: the \`compaction\` block must be the first block of the conversation.`;
    if (signed.get(String(b.signature)) !== b.content) return `messages.${i}.content.${j}: the \`compaction\` block's signature does not verify.`;
  }
  for (const [i, m] of messages.entries()) {
    for (const [j, b] of m.blocks.entries()) {
      if (b.type === 'thinking' && signed.get(String(b.signature)) !== b.thinking)
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block.`;
    }
    const uses = m.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (m.role !== 'assistant' || uses.length === 0) continue;
    const next = messages[i + 1];
    if (next === undefined) continue;
    const leading = next.blocks.slice(0, uses.length);
    if (!uses.every((id, k) => leading[k]?.type === 'tool_result' && leading[k]?.tool_use_id === id))
      return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${uses.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  const lastAssistant = messages.filter((m) => m.role === 'assistant').at(-1);
  if (body.thinking?.type === 'enabled' && lastAssistant?.blocks.some((b) => b.type === 'tool_use')) {
    const first = lastAssistant.blocks[0]?.type;
    if (first !== 'thinking' && first !== 'redacted_thinking')
      return `messages: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
  }
  return undefined;
}

export async function startFakeAnthropicServer(): Promise<FakeAnthropicServer> {
  const signed = new Map<string, string>();
  const cache = new Set<string>();
  const usages: FakeAnthropicServer['usages'] = [];
  const thinkingIssued: FakeAnthropicServer['thinkingIssued'] = [];
  const compactionsIssued: FakeAnthropicServer['compactionsIssued'] = [];
  let counter = 0;

  /** Input tokens: read from the cache, written to it, and the rest, at the request's breakpoints. */
  const inputUsage = (body: Body) => {
    const blocks = cacheOrder(body);
    const prefixes: Array<{ key: string; tokens: number }> = [];
    let key = '';
    let tokens = 0;
    for (const b of blocks) {
      const { cache_control: _, ...content } = b;
      const json = JSON.stringify(content);
      key = createHash('sha256').update(key).update(json).digest('hex');
      tokens += tokensOf(json);
      prefixes.push({ key, tokens });
    }
    const marks = blocks.flatMap((b, i) => (b.cache_control ? [i] : []));
    let read = 0;
    for (const mark of marks) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK_BLOCKS); i--) {
        if (cache.has(prefixes[i]!.key)) {
          read = Math.max(read, prefixes[i]!.tokens);
          break;
        }
      }
    }
    let written = 0;
    for (const mark of marks) {
      const prefix = prefixes[mark]!;
      if (prefix.tokens < CACHE_MINIMUM || cache.has(prefix.key)) continue;
      cache.add(prefix.key);
      written = Math.max(written, prefix.tokens - read);
    }
    return { total: tokens, read, written };
  };

  const contentOf = (answer: AnthropicAnswer, n: number): Block[] => {
    const content: Block[] = [];
    if (answer.thinking !== undefined) {
      const signature = createHash('sha256').update(`signature:${n}:${answer.thinking}`).digest('base64');
      signed.set(signature, answer.thinking);
      const issued = { type: 'thinking' as const, thinking: answer.thinking, signature };
      thinkingIssued.push(issued);
      content.push({ ...issued });
    }
    if (answer.text !== undefined) content.push({ type: 'text', text: answer.text, citations: null });
    (answer.toolCalls ?? []).forEach((call, i) => {
      const input = typeof call.arguments === 'string' ? call.arguments : (call.arguments ?? {});
      content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: call.name, input, caller: { type: 'direct' } });
    });
    return content;
  };

  /** A compaction request's answer: one signed block summarising the conversation sent. */
  const compactionOf = (body: Body, n: number): Block[] => {
    const summary = `Summary ${n} of ${body.messages.length} messages: the player moves with ACTION1-4.`;
    const signature = createHash('sha256').update(`compaction:${n}:${summary}`).digest('base64');
    signed.set(signature, summary);
    const issued = { type: 'compaction', content: summary, encrypted_content: null, signature, tool_changes: [] };
    compactionsIssued.push(issued);
    return [{ ...issued }];
  };

  const server = await startFakeApi<AnthropicAnswer>({
    prefix: '',
    errorBody: (status, text) => ({
      type: 'error',
      error: { type: status === 400 ? 'invalid_request_error' : status === 429 ? 'rate_limit_error' : 'api_error', message: text },
    }),
    routes: [
      {
        path: '/v1/messages',
        schema: createSchema,
        check: (body, headers) => betaProblem(body, headers) ?? conversationProblem(body, signed),
        scripted: true,
        answer(body: Body, answer, index) {
          const n = ++counter;
          const input = inputUsage(body);
          const content = body.compaction ? compactionOf(body, n) : contentOf(answer, n);
          const thinkingTokens = answer.thinking === undefined ? 0 : tokensOf(answer.thinking);
          const outputTokens = answer.outputTokens ?? tokensOf(JSON.stringify(content.filter((b) => b.type !== 'thinking'))) + thinkingTokens;
          const usage: AnthropicUsage = {
            input_tokens: input.total - input.read - input.written,
            cache_read_input_tokens: input.read,
            cache_creation_input_tokens: input.written,
            output_tokens: outputTokens,
            output_tokens_details: { thinking_tokens: thinkingTokens },
          };
          usages.push({ index, id: `msg_${n}`, kind: body.compaction ? 'compaction' : 'message', usage });
          const stopReason = body.compaction ? 'compaction' : (answer.stopReason ?? ((answer.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn'));
          return {
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model: answer.model ?? body.model,
            content,
            stop_reason: stopReason,
            stop_sequence: null,
            container: null,
            usage: { ...usage, cache_creation: null, server_tool_use: null, service_tier: 'standard', inference_geo: null, speed: null },
          };
        },
      },
    ],
  });
  return Object.assign(server, { usages, thinkingIssued, compactionsIssued });
}
