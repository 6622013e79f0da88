/**
 * A language model plays: any model behind an OpenAI-compatible Chat Completions API (OpenAI,
 * OpenRouter, vLLM, Ollama, …) through the official `openai` SDK. It acts through tool calls (one tool
 * per available action) or, for servers without tools, a JSON answer; reports every call's tokens and
 * dollars to the runner; and keeps its context under `context_tokens` by having the model summarise
 * older turns. Written exactly as a user's plugin: it imports nothing of arcbench but the package entry.
 *
 * The pieces live in ./llm/: frame encodings, turn text, tools, memory, the model client, the cache.
 */
import { defineAgent, z } from 'arcbench';
import { FRAME_FORMATS } from './llm/frameFormats.ts';
import { ModelClient } from './llm/modelClient.ts';
import { DEFAULT_SYSTEM_PROMPT, Player } from './llm/player.ts';
import { ResponseCache } from './llm/responseCache.ts';

const dollarsPerMillion = z.number().min(0);

const params = z
  .strictObject({
    model: z.string({ error: 'name the model, e.g. model: gpt-4.1-mini' }).min(1).describe('Model name as the server knows it.'),
    base_url: z
      .url({ error: 'expected the API base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1' })
      .optional()
      .describe('OpenAI-compatible API base URL; default: OPENAI_BASE_URL, else https://api.openai.com/v1.'),
    api_key: z
      .string()
      .min(1)
      .optional()
      .describe('The key; default: OPENAI_API_KEY. Write "${MY_KEY}" to take it from another variable; run.json shows it redacted.'),
    temperature: z.number().min(0).max(2).optional(),
    max_output_tokens: z.int().positive().optional().describe('Cap on each reply (max_completion_tokens), reasoning included.'),
    reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional().describe('For reasoning models that take it.'),
    pricing: z
      .strictObject({ input: dollarsPerMillion, cached_input: dollarsPerMillion.optional(), output: dollarsPerMillion })
      .optional()
      .describe('Dollars per million tokens; without it the cost is reported as unknown.'),
    frame_format: z.enum(FRAME_FORMATS).default('text').describe('text (hex digits), diff (changes since the last frame) or image (PNG, vision models).'),
    output: z.enum(['tools', 'json']).default('tools').describe('tools: one tool per action; json: a JSON answer, for servers without tool calling.'),
    context_tokens: z.int().min(1_000).default(16_000).describe('Past this, older turns are summarised by the model.'),
    recent_turns: z.int().min(1).max(100).default(4).describe('Turns always kept verbatim.'),
    system_prompt: z.string().min(1).optional().describe('Replaces the built-in system prompt.'),
    send_seed: z
      .boolean()
      .default(false)
      .describe("Send the episode's seed as the request's `seed` (best-effort reproducibility where the server takes it; some refuse the field)."),
    request_timeout_seconds: z.number().positive().default(120).describe('Per model request.'),
    max_retries: z.int().min(0).max(20).default(4).describe('Retries of a 429, 5xx, timeout or unusable answer, within the episode deadline.'),
    cache: z.boolean().default(false).describe('Keep every answer on disk and replay it for the same request and episode seed: no call, no cost.'),
    cache_dir: z.string().min(1).default('.arcbench-cache/llm').describe('Folder of the response cache, relative to the experiment file.'),
  })
  .superRefine((value, context) => {
    if (value.api_key === undefined && !process.env.OPENAI_API_KEY) {
      context.addIssue({
        code: 'custom',
        path: ['api_key'],
        message: 'no API key: export OPENAI_API_KEY=… or set api_key (servers that need none, such as Ollama, take any value, e.g. api_key: none)',
      });
    }
  });

export default defineAgent({
  name: 'llm',
  description: 'A language model behind any OpenAI-compatible API plays through tool calls; tokens and dollars reported per call.',
  params,
  create({ params: p, game, seed, signal, reportUsage, keepTranscript, resolvePath }) {
    const client = new ModelClient({
      baseUrl: p.base_url ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
      apiKey: p.api_key ?? process.env.OPENAI_API_KEY ?? '',
      pricing: p.pricing,
      requestTimeoutMs: p.request_timeout_seconds * 1000,
      maxRetries: p.max_retries,
      signal,
      cache: p.cache ? new ResponseCache(resolvePath(p.cache_dir)) : undefined,
      episodeSeed: seed,
      reportUsage,
      keepTranscript,
    });
    const player = new Player({
      client,
      game,
      model: p.model,
      frameFormat: p.frame_format,
      output: p.output,
      systemPrompt: p.system_prompt ?? DEFAULT_SYSTEM_PROMPT,
      contextTokens: p.context_tokens,
      recentTurns: p.recent_turns,
      sampling: {
        ...(p.send_seed ? { seed } : {}),
        ...(p.temperature === undefined ? {} : { temperature: p.temperature }),
        ...(p.max_output_tokens === undefined ? {} : { max_completion_tokens: p.max_output_tokens }),
        ...(p.reasoning_effort === undefined ? {} : { reasoning_effort: p.reasoning_effort }),
      },
    });
    return { act: (frame, step) => player.act(frame, step.actions) };
  },
});
