/**
 * A language model plays, through one of three provider APIs (`api`): Chat Completions (`chat`, any
 * OpenAI-compatible server: vLLM, Ollama, OpenRouter, …), OpenAI's Responses API (`responses`, with
 * the conversation kept by the provider or replayed with its encrypted reasoning), or Anthropic's
 * Messages API (`anthropic`, thinking blocks kept, prompt cache breakpoints). It acts through tool
 * calls (one tool per available action; up to `max_actions_per_turn` a reply) or, for servers without
 * tools, a JSON answer; reports every call's tokens and dollars to the runner; and keeps its context
 * under `context_tokens` by compacting older turns. Written exactly as a user's plugin: it imports
 * nothing of arcbench but the package entry. The SDK of the chosen API is loaded when an episode
 * starts, never with the package.
 *
 * The pieces live in ./llm/: frame encodings, turn text, tools, memory, batches, and providers/.
 */
import { defineAgent, type HarnessFacts, z } from 'arcbench';
import { callEstimate } from './llm/callEstimate.ts';
import { FRAME_FORMATS } from './llm/frameFormats.ts';
import { DEFAULT_SYSTEM_PROMPT, Player } from './llm/player.ts';
import { API_NAMES, defaultApi, keyVariable, loadProvider } from './llm/providers/index.ts';
import { ResponseCache } from './llm/responseCache.ts';

const dollarsPerMillion = z.number().min(0);

const params = z
  .strictObject({
    model: z.string({ error: 'name the model, e.g. model: gpt-4.1-mini' }).min(1).describe('Model name as the server knows it.'),
    api: z
      .enum(API_NAMES)
      .optional()
      .describe("chat (Chat Completions), responses (OpenAI's Responses API) or anthropic (Messages API); default: responses for OpenAI's own URL, else chat."),
    state: z
      .enum(['provider', 'stateless', 'harness'])
      .default('provider')
      .describe(
        'responses only. provider: previous_response_id chains the turns; stateless: store false, encrypted reasoning replayed; harness: our own memory.',
      ),
    base_url: z
      // http(s) only: zod's URL check alone takes `127.0.0.1:11434/v1` (the usual slip) as a URL whose scheme is `127.0.0.1`.
      .url({ protocol: /^https?$/, error: 'expected the API base URL with its scheme, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1' })
      .optional()
      .describe('API base URL; default: OPENAI_BASE_URL (ANTHROPIC_BASE_URL for anthropic), else the provider’s own.'),
    api_key: z
      .string()
      .min(1)
      .optional()
      .describe(
        'The key; default: OPENAI_API_KEY (ANTHROPIC_API_KEY for anthropic). Write "${MY_KEY}" to take it from another variable; run.json shows it redacted.',
      ),
    temperature: z.number().min(0).max(2).optional().describe('chat and responses (the Messages API takes none).'),
    max_output_tokens: z
      .int()
      .positive()
      .optional()
      .describe('Cap on each reply, reasoning included (anthropic: max_tokens, default 4096 plus the thinking budget).'),
    max_tokens_field: z
      .enum(['max_completion_tokens', 'max_tokens'])
      .default('max_completion_tokens')
      .describe('chat: the field max_output_tokens is sent as; max_tokens for servers that know only that (llama.cpp, older Ollama).'),
    reasoning_effort: z
      .enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])
      .optional()
      .describe('chat and responses: for reasoning models that take it.'),
    thinking_budget: z.int().min(1_024).optional().describe("anthropic: extended thinking's budget_tokens per reply (at least 1,024); off when absent."),
    thinking: z
      .enum(['enabled', 'adaptive'])
      .optional()
      .describe('anthropic: enabled (with thinking_budget, the default when it is given) or adaptive (the model decides how long to think; newer models).'),
    pricing: z
      .strictObject({
        input: dollarsPerMillion,
        cached_input: dollarsPerMillion.optional(),
        cache_write: dollarsPerMillion.optional().describe('Input written to the prompt cache (anthropic); default: the input price.'),
        output: dollarsPerMillion,
      })
      .optional()
      .describe('Dollars per million tokens; without it the cost is reported as unknown.'),
    frame_format: z.enum(FRAME_FORMATS).default('text').describe('text (hex digits), diff (changes since the last frame) or image (PNG, vision models).'),
    output: z.enum(['tools', 'json']).default('tools').describe('tools: one tool per action; json: a JSON answer, for servers without tool calling.'),
    max_actions_per_turn: z.int().min(1).max(20).default(1).describe('Actions the model may plan in one reply (tools output), each with a prediction.'),
    compaction: z
      .enum(['native', 'summary', 'off'])
      .default('summary')
      .describe("Past context_tokens: native (the provider's own compaction: responses, anthropic), summary (the model summarises older turns) or off."),
    context_tokens: z.int().min(1_000).default(16_000).describe('Past this, older turns are compacted.'),
    recent_turns: z.int().min(1).max(100).default(4).describe('Turns a summary always keeps verbatim.'),
    system_prompt: z.string().min(1).optional().describe('Replaces the built-in system prompt.'),
    send_seed: z
      .boolean()
      .default(false)
      .describe("chat: send the episode's seed as the request's `seed` (best-effort reproducibility where the server takes it; some refuse the field)."),
    request_timeout_seconds: z.number().positive().default(120).describe('Per model request.'),
    max_retries: z.int().min(0).max(20).default(4).describe('Retries of a 429, 5xx, timeout or unusable answer, within the episode deadline.'),
    cache: z.boolean().default(false).describe('Keep every answer on disk and replay it for the same request and episode seed: no call, no cost.'),
    cache_dir: z.string().min(1).default('.arcbench-cache/llm').describe('Folder of the response cache, relative to the experiment file.'),
  })
  .superRefine((value, context) => {
    const api = value.api ?? defaultApi(value.base_url);
    const variable = keyVariable(api);
    if (value.api_key === undefined && !process.env[variable]) {
      context.addIssue({
        code: 'custom',
        path: ['api_key'],
        message: `no API key: export ${variable}=… or set api_key (servers that need none, such as Ollama, take any value, e.g. api_key: none)`,
      });
    }
    if (value.output === 'json' && value.max_actions_per_turn > 1) {
      context.addIssue({
        code: 'custom',
        path: ['max_actions_per_turn'],
        message: 'batches of actions need tool calls: set output: tools, or max_actions_per_turn: 1',
      });
    }
    if (value.compaction === 'native' && api === 'chat') {
      const message = 'Chat Completions has no native compaction: use compaction: summary, or api: responses or anthropic';
      context.addIssue({ code: 'custom', path: ['compaction'], message });
    }
    if (value.temperature !== undefined && api === 'anthropic') {
      context.addIssue({ code: 'custom', path: ['temperature'], message: 'the Messages API (api: anthropic) takes no temperature: remove it' });
    }
    if (value.thinking === 'adaptive' && value.thinking_budget !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['thinking_budget'],
        message: 'adaptive thinking takes no budget: remove thinking_budget, or set thinking: enabled',
      });
    }
    if (value.thinking === 'enabled' && value.thinking_budget === undefined) {
      context.addIssue({ code: 'custom', path: ['thinking_budget'], message: 'thinking: enabled needs its budget: set thinking_budget (at least 1024)' });
    }
    const budget = value.thinking_budget;
    if (budget !== undefined && value.max_output_tokens !== undefined && value.max_output_tokens <= budget) {
      const message = 'max_output_tokens must be more than thinking_budget (the thinking is part of the reply)';
      context.addIssue({ code: 'custom', path: ['max_output_tokens'], message });
    }
  });

type Params = z.output<typeof params>;

/** What of this harness decides a score beyond the model: the facts of its harness card (never the prompt's text, nor the key). */
function harnessFacts(p: Params): HarnessFacts {
  const api = p.api ?? defaultApi(p.base_url);
  return {
    facts: {
      model: p.model,
      api,
      // Only the Responses API can keep the conversation on the provider's side; the others replay it each call.
      state_mode: api === 'responses' ? p.state : 'harness',
      compaction: p.compaction,
      context_tokens: p.context_tokens,
      batch_size: p.max_actions_per_turn,
      frame_format: p.frame_format,
      tools: p.output === 'tools' ? 'one tool per action' : 'json answer',
      reasoning: p.reasoning_effort ?? p.thinking ?? null,
      thinking_budget: p.thinking_budget ?? null,
      temperature: p.temperature ?? null,
      max_output_tokens: p.max_output_tokens ?? null,
      request_timeout_seconds: p.request_timeout_seconds,
      retries: p.max_retries,
      response_cache: p.cache,
    },
    prompts: { system: p.system_prompt ?? DEFAULT_SYSTEM_PROMPT },
  };
}

export default defineAgent({
  name: 'llm',
  description:
    'A language model behind Chat Completions, the Responses API or the Anthropic Messages API plays through tool calls; tokens and dollars reported per call.',
  params,
  async create({ params: p, game, seed, signal, reportUsage, keepTranscript, keepsTranscripts, resolvePath }) {
    const api = p.api ?? defaultApi(p.base_url);
    const provider = await loadProvider(api, {
      model: p.model,
      baseUrl: p.base_url,
      apiKey: p.api_key,
      temperature: p.temperature,
      maxOutputTokens: p.max_output_tokens,
      maxTokensField: p.max_tokens_field,
      reasoningEffort: p.reasoning_effort,
      thinkingBudget: p.thinking_budget,
      adaptiveThinking: p.thinking === 'adaptive',
      state: p.state,
      seed: p.send_seed ? seed : undefined,
      pricing: p.pricing,
      requestTimeoutMs: p.request_timeout_seconds * 1000,
      maxRetries: p.max_retries,
      signal,
      cache: p.cache ? new ResponseCache(resolvePath(p.cache_dir)) : undefined,
      episodeSeed: seed,
      reportUsage,
      // A transcript nobody keeps is not made: copying the request and the reply is work on every call.
      keepTranscript: keepsTranscripts === false ? undefined : keepTranscript,
    });
    const player = new Player({
      provider,
      game,
      model: p.model,
      frameFormat: p.frame_format,
      output: p.output,
      systemPrompt: p.system_prompt ?? DEFAULT_SYSTEM_PROMPT,
      contextTokens: p.context_tokens,
      recentTurns: p.recent_turns,
      compaction: p.compaction,
      maxActionsPerTurn: p.max_actions_per_turn,
    });
    return {
      act: (frame, step) => player.act(frame, step.actions),
      snapshot: () => player.snapshot(),
      restore: (state) => player.restore(state),
      finish: () => provider.close(),
    };
  },
  describe: (p) => ({
    callsModel: true,
    costEstimate: (game) => callEstimate(p, p.api ?? defaultApi(p.base_url), game),
    // Every try may run to its timeout (the backoff between tries comes on top: this is the least of the worst case).
    longestDecisionSeconds: p.request_timeout_seconds * (1 + p.max_retries),
    shortenDecisionHint: 'lower params.request_timeout_seconds or max_retries (one decision takes up to request_timeout_seconds × (1 + max_retries))',
    harness: harnessFacts(p),
  }),
});
