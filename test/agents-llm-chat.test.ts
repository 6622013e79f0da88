// The llm agent on Chat Completions (a fake that validates every request against the SDK's types and
// the API's rules), through the real runner: what it sends after a refusal, and how it caps replies.
import { describe, expect, it } from 'vitest';
import { toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
const crat = levelOneToolCalls('crat').gameId;

async function play(params: Record<string, unknown>, maxActions = 1) {
  const run = await runLlmExperiment(fake.newFolder(), {
    name: 'chat',
    games: [crat],
    params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, ...params },
    budgets: { max_actions: maxActions },
  });
  return firstOf(run.episodesFromFile, 'episode');
}

describe('Chat Completions', () => {
  // `{"role":"assistant","content":null}` is invalid (content is required without tool_calls): the re-ask
  // after a refusal would be a 400 and end the episode.
  it('after a refusal re-asks with the refusal as the assistant turn’s content, and plays the second answer', async () => {
    fake.server.script({ refusal: 'I cannot help with that.' }, { toolCalls: [toolCall('ACTION2')] });
    const episode = await play({});
    expect(fake.server.refused).toEqual([]);
    expect(episode.actions).toBe(1);
    const replayed = fake.server.request(1).body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(replayed).toEqual({ role: 'assistant', content: 'I cannot help with that.' });
  });

  // llama.cpp's server and older Ollama know only max_tokens: max_completion_tokens would not cap them.
  it('sends max_output_tokens as max_tokens when max_tokens_field asks, for servers that know only that', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')] }));
    await play({ max_output_tokens: 300, max_tokens_field: 'max_tokens' });
    expect(fake.server.request(0).body.max_tokens).toBe(300);
    expect(fake.server.request(0).body).not.toHaveProperty('max_completion_tokens');
  });

  it('takes reasoning_effort: max, which the SDK offers', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')] }));
    const episode = await play({ reasoning_effort: 'max' });
    expect(episode.actions).toBe(1);
    expect(fake.server.request(0).body.reasoning_effort).toBe('max');
  });

  // The agent's estimate (4 characters a token) can fall short of the server's tokenizer: the server
  // refuses the request as too long, and the episode goes on with older turns summarised.
  it('summarises older turns and asks again when the server refuses a request as longer than the model’s context', async () => {
    const tooLong = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.";
    fake.server.setFallback((request) => {
      if (request.body.tools === undefined) return { text: 'ACTION2 probes.' };
      return request.body.messages.length > 6 ? { status: 400, message: tooLong } : { toolCalls: [toolCall('ACTION2')] };
    });
    const episode = await play({ context_tokens: 100_000, recent_turns: 1 }, 4);
    expect(episode.outcome).toBe('budget');
    expect(episode.actions).toBe(4);
    const refusedAt = fake.server.requests.findIndex((r) => r.body.messages.length > 6);
    expect(fake.server.request(refusedAt + 1).body.tools).toBeUndefined();
    expect(fake.server.request(refusedAt + 2).body.messages[0].content).toContain('ACTION2 probes.');
    expect(episode.model_calls!.filter((call) => call.kind === 'compaction').length).toBeGreaterThanOrEqual(1);
  });
});
