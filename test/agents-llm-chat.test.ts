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
});
