// What a retried model call costs: providers bill a call that failed late (a timeout, a server error
// after the model ran, an answer we could not use), so each such attempt is a record of its own, at
// its figures where the answer carried them, else with its cost unknown (null), never silently 0.
// Refusals before any work (429, 503 overloaded) cost nothing and leave no record.
import { describe, expect, it } from 'vitest';
import { toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
const crat = levelOneToolCalls('crat').gameId;

describe('retried model calls', () => {
  it('records each billed attempt: its figures when the unusable answer had them, else its cost as unknown', async () => {
    const usage = { prompt_tokens: 1_000, completion_tokens: 50, total_tokens: 1_050 };
    fake.server.script(
      { status: 429, retryAfterMs: 5 },
      { status: 503, retryAfterMs: 5 },
      { status: 500, retryAfterMs: 5 },
      { rawBody: JSON.stringify({ model: 'fake-model', choices: [], usage }) },
      { toolCalls: [toolCall('ACTION1')], usage: { prompt_tokens: 100, completion_tokens: 10 } },
    );
    const run = await runLlmExperiment(fake.newFolder(), {
      name: 'retries',
      games: [crat],
      params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: { input: 1, output: 2 } },
      budgets: { max_actions: 1 },
    });
    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(fake.server.requests).toHaveLength(5);
    const calls = episode.model_calls!.map(({ input_tokens, output_tokens, cost_usd }) => ({ input_tokens, output_tokens, cost_usd }));
    expect(calls).toEqual([
      { input_tokens: 0, output_tokens: 0, cost_usd: null },
      { input_tokens: 1_000, output_tokens: 50, cost_usd: (1_000 * 1 + 50 * 2) / 1e6 },
      { input_tokens: 100, output_tokens: 10, cost_usd: (100 * 1 + 10 * 2) / 1e6 },
    ]);
    // One attempt's cost is unknown, so the episode's is too.
    expect(episode.usage.cost_usd).toBeNull();
  });

  // OpenAI's 429 says when the limit resets (x-ratelimit-reset-requests / -tokens, as 1s, 6m0s or 20ms);
  // our own backoff (0.5–1 s first) would retry into the same limit.
  it('waits out a 429 until the x-ratelimit-reset the server sent, when it sent no Retry-After', async () => {
    const arrivals: number[] = [];
    fake.server.setFallback((_request, index) => {
      arrivals.push(performance.now());
      if (index > 0) return { toolCalls: [toolCall('ACTION1')] };
      return { status: 429, headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1.8s', 'x-ratelimit-reset-requests': '20ms' } };
    });
    const run = await runLlmExperiment(fake.newFolder(), {
      name: 'reset',
      games: [crat],
      params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY },
      budgets: { max_actions: 1 },
    });
    expect(firstOf(run.episodesFromFile, 'episode').actions).toBe(1);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1_800);
  });
});
