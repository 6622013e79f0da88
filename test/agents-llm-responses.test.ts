// The llm agent on OpenAI's Responses API (a fake of ours that validates every request against the
// SDK's request types), through the real runner and reference service: a level played on each
// conversation state; `provider` chains responses without resending history, `stateless` replays
// the encrypted reasoning with store: false, `harness` is the agent's own memory; native compaction
// is one labelled call; tokens and dollars in run.json are the server's figures times the prices.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../src/runfolder/transcriptFile.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { type ResponsesUsage, startFakeResponsesServer } from './support/fakeResponsesServer.ts';
import { firstOf, lastOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFake } from './support/llmRun.ts';

const PRICING = { input: 1.25, cached_input: 0.125, output: 10 };
const dollars = (u: ResponsesUsage) =>
  ((u.input_tokens - u.input_tokens_details.cached_tokens) * PRICING.input +
    u.input_tokens_details.cached_tokens * PRICING.cached_input +
    u.output_tokens * PRICING.output) /
  1e6;

const fake = useFake(startFakeResponsesServer);
const crat = levelOneToolCalls('crat');

async function play(params: Record<string, unknown>, maxActions: number) {
  const run = await runLlmExperiment(fake.newFolder(), {
    name: 'responses',
    games: [crat.gameId],
    params: { api: 'responses', model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING, ...params },
    budgets: { max_actions: maxActions },
  });
  return { run, episode: firstOf(run.episodesFromFile, 'episode') };
}

const inputTypes = (index: number) => (fake.server.request(index).body.input as Array<{ type: string }>).map((item) => item.type);

describe('the Responses API', () => {
  it.each(['provider', 'stateless', 'harness'])('plays a level with state: %s; usage and dollars are the server’s figures', async (state) => {
    fake.server.script(...crat.calls.map((call) => ({ toolCalls: [call], reasoning: 'push the crate onto the target' })));
    const { run, episode } = await play({ state, reasoning_effort: 'low' }, crat.calls.length);
    expect(fake.server.refused).toEqual([]);
    expect(episode.levels_completed).toBe(1);
    expect(fake.server.requests).toHaveLength(crat.calls.length);
    const usages = fake.server.usages.map((u) => u.usage);
    const expected = {
      input_tokens: usages.reduce((s, u) => s + u.input_tokens, 0),
      cached_input_tokens: usages.reduce((s, u) => s + u.input_tokens_details.cached_tokens, 0),
      reasoning_tokens: usages.reduce((s, u) => s + u.output_tokens_details.reasoning_tokens, 0),
      output_tokens: usages.reduce((s, u) => s + u.output_tokens, 0),
      calls: crat.calls.length,
    };
    expect(expected.reasoning_tokens).toBeGreaterThan(0);
    expect(run.runJson.totals.usage).toMatchObject(expected);
    expect(run.runJson.totals.usage.cost_usd).toBeCloseTo(
      usages.reduce((s, u) => s + dollars(u), 0),
      12,
    );
    expect(fake.server.request(0).body).toMatchObject({ model: 'fake-model', reasoning: { effort: 'low' } });
  });

  it('state: provider sends the previous response id and only what is new: the tool result and the next turn', async () => {
    fake.server.script({ toolCalls: [toolCall('ACTION1')], reasoning: 'try up' }, { toolCalls: [toolCall('ACTION2')] }, { toolCalls: [toolCall('ACTION3')] });
    await play({ state: 'provider' }, 3);
    const [first, second, third] = [0, 1, 2].map((i) => fake.server.request(i).body);
    expect(first.previous_response_id).toBeUndefined();
    expect(inputTypes(0)).toEqual(['message']);
    const ids = fake.server.usages.map((u) => u.id);
    expect(second.previous_response_id).toBe(ids[0]);
    expect(inputTypes(1)).toEqual(['function_call_output', 'message']);
    expect(second.input[0]).toMatchObject({ type: 'function_call_output', output: 'sent; the result comes with the next frame' });
    expect(third.previous_response_id).toBe(ids[1]);
    // The stable part leads every request, byte for byte.
    expect(second.instructions).toBe(first.instructions);
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    expect(first.store).toBeUndefined();
    // The server holds the growing conversation: from the third call on, most of it is a cached prefix.
    const usage = lastOf(fake.server.usages, 'usage').usage;
    expect(usage.input_tokens_details.cached_tokens / usage.input_tokens).toBeGreaterThan(0.5);
  });

  it('state: stateless sends store: false and replays the earlier reasoning items with their encrypted content unchanged', async () => {
    fake.server.script(
      { toolCalls: [toolCall('ACTION1')], reasoning: 'first thought' },
      { toolCalls: [toolCall('ACTION2')], reasoning: 'second' },
      {
        toolCalls: [toolCall('ACTION3')],
      },
    );
    const { episode } = await play({ state: 'stateless' }, 3);
    expect(episode.actions).toBe(3);
    expect(fake.server.refused).toEqual([]);
    const bodies = [0, 1, 2].map((i) => fake.server.request(i).body);
    for (const body of bodies) expect(body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(bodies[1].previous_response_id).toBeUndefined();
    expect(inputTypes(1)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output', 'message']);
    expect(inputTypes(2)).toEqual([
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'message',
    ]);
    const replayed = bodies[2].input.filter((item: { type: string }) => item.type === 'reasoning');
    expect(replayed.map((item: { id: string }) => item.id)).toEqual(fake.server.usages.slice(0, 2).map((u) => u.id.replace('resp_', 'rs_')));
    expect(replayed[0].encrypted_content).toMatch(/^gAAAA/);
    expect(replayed[0]).toEqual(bodies[1].input[1]);
  });

  it('state: stateless prunes the reasoning of turns a summary folded', async () => {
    fake.server.setFallback((request) =>
      request.body.tools === undefined ? { text: 'ACTION2 moves the player down.' } : { toolCalls: [toolCall('ACTION2')], reasoning: 'probe' },
    );
    const { episode } = await play({ state: 'stateless', context_tokens: 1_000, recent_turns: 1 }, 4);
    const kinds = episode.model_calls!.map((c) => c.kind);
    expect(kinds).toContain('compaction');
    const last = lastOf(fake.server.requests, 'request').body;
    expect(last.instructions).toContain('Summary of the earlier turns (written by you):\nACTION2 moves the player down.');
    // One kept turn: its reasoning item alone is replayed.
    expect(last.input.filter((item: { type: string }) => item.type === 'reasoning')).toHaveLength(1);
    expect(fake.server.refused).toEqual([]);
  });

  // A reasoning model's function_call is refused without the reasoning item it came with (400): the kept
  // turns go back with their reasoning items, which the server kept (store is on), named by id.
  it('state: harness resends the kept turns with the reasoning items their tool calls came with', async () => {
    fake.server.script({ toolCalls: [toolCall('ACTION1')], reasoning: 'a' }, { toolCalls: [toolCall('ACTION2')], reasoning: 'b' });
    await play({ state: 'harness' }, 2);
    expect(fake.server.refused).toEqual([]);
    expect(inputTypes(1)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output', 'message']);
    expect(fake.server.request(1).body.previous_response_id).toBeUndefined();
  });

  it('compaction: native calls the compact endpoint once, labelled, counted in the step that follows it', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')] }));
    const { run, episode } = await play({ state: 'provider', compaction: 'native', context_tokens: 1_000, recent_turns: 1 }, 5);
    expect(fake.server.refused).toEqual([]);
    const compactions = fake.server.requests.filter((r) => r.path.endsWith('/responses/compact'));
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    const calls = episode.model_calls!;
    expect(calls.filter((c) => c.kind === 'compaction')).toHaveLength(compactions.length);
    const compactionCall = firstOf(
      calls.filter((c) => c.kind === 'compaction'),
      'compaction call',
    );
    // The compaction is paid in the step whose action follows it, together with that action's call.
    expect(calls.filter((c) => c.step === compactionCall.step).map((c) => c.kind)).toEqual(['compaction', 'action']);
    const compactUsage = firstOf(
      fake.server.usages.filter((u) => u.kind === 'compaction'),
      'compaction usage',
    ).usage;
    expect(compactionCall.input_tokens).toBe(compactUsage.input_tokens);
    // After it, the chain starts again from the compacted items: no previous id, the compaction item sent.
    const index = fake.server.requests.indexOf(firstOf(compactions, 'compaction'));
    const next = fake.server.request(index + 1).body;
    expect(next.previous_response_id).toBeUndefined();
    expect(next.input.map((item: { type?: string }) => item.type)).toContain('compaction');
    expect(run.runJson.totals.usage.calls).toBe(fake.server.requests.length);
  });

  it('shows the model its refusal, retries 429 and a malformed body, and says when an answer never comes', async () => {
    fake.server.script(
      { refusal: 'I cannot help with that.' },
      { status: 429, retryAfterMs: 5 },
      { rawBody: '{"output": 3}' },
      { toolCalls: [toolCall('ACTION1')] },
    );
    const { episode } = await play({}, 1);
    expect(episode.outcome).toBe('budget');
    expect(fake.server.requests).toHaveLength(4);
    const retry = fake.server.request(1).body.input;
    expect(retry.at(-1).content[0].text).toMatch(/^That answer could not be played: you declined to play \("I cannot help with that\."\)/);

    fake.server.requests.length = 0;
    fake.server.script({ hang: true });
    const hung = await play({ request_timeout_seconds: 0.2, max_retries: 0 }, 1);
    expect(hung.episode.error!.message).toMatch(/did not answer within 0\.2 s; raise params\.request_timeout_seconds/);
  });

  it('plays a batch of 3 actions from one reply: 3 actions, 1 call', async () => {
    fake.server.script({ toolCalls: crat.calls, reasoning: 'all three at once' });
    const { episode } = await play({ max_actions_per_turn: 3 }, 3);
    expect(episode.actions).toBe(3);
    expect(episode.levels_completed).toBe(1);
    expect(fake.server.requests).toHaveLength(1);
    expect(episode.usage.calls).toBe(1);
  });

  it('state: provider starts a new chain after a summary: the kept turn, its reasoning and the summary sent, no previous id', async () => {
    fake.server.setFallback((request) =>
      request.body.tools === undefined ? { text: 'ACTION2 probes.' } : { toolCalls: [toolCall('ACTION2')], reasoning: 'probe again' },
    );
    const { episode } = await play({ state: 'provider', context_tokens: 1_000, recent_turns: 1 }, 4);
    expect(fake.server.refused).toEqual([]);
    const bodies = fake.server.requests.map((r) => r.body);
    const summary = bodies.findIndex((body) => body.tools === undefined);
    expect(summary).toBeGreaterThan(0);
    const restart = bodies[summary + 1];
    expect(restart.previous_response_id).toBeUndefined();
    expect(restart.instructions).toContain('Summary of the earlier turns (written by you):\nACTION2 probes.');
    expect(restart.input.map((item: { type: string }) => item.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output', 'message']);
    // The server's context shrank with the summary: no compaction every turn after the first.
    expect(episode.model_calls!.filter((c) => c.kind === 'compaction').length).toBeLessThan(3);
  });

  // Summaries come only when asked for (reasoning.summary), and models before gpt-5.6 drop the reasoning
  // of earlier turns unless reasoning.context says all_turns (the SDK's Reasoning.context): every step is a new turn.
  it('with reasoning_effort asks for reasoning summaries and for the reasoning of earlier turns, and keeps the summaries in the transcript', async () => {
    fake.server.script({ toolCalls: [toolCall('ACTION1')], reasoning: 'first thought' }, { toolCalls: [toolCall('ACTION2')], reasoning: 'second' });
    const { run, episode } = await play({ state: 'provider', reasoning_effort: 'medium' }, 2);
    expect(fake.server.refused).toEqual([]);
    for (const request of fake.server.requests) expect(request.body.reasoning).toEqual({ effort: 'medium', summary: 'auto', context: 'all_turns' });
    const calls = await readTranscript(join(run.out, episode.transcript!));
    expect(calls.map((call) => call.response.reasoning)).toEqual(['first thought', 'second']);
  });

  it('replays a state: provider run from the response cache without a call, the chain of ids included', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], reasoning: 'again' }));
    const experiment = {
      name: 'cached',
      games: [crat.gameId],
      params: { api: 'responses', model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING, cache: true },
      budgets: { max_actions: 4 },
    };
    const first = await runLlmExperiment(folder, experiment);
    expect(fake.server.requests).toHaveLength(4);
    fake.server.setFallback(() => ({ status: 500, message: 'the replay must not call the server' }));
    const second = await runLlmExperiment(folder, { ...experiment, name: 'cached-again' });
    expect(fake.server.requests).toHaveLength(4);
    expect(second.report.totals.usage).toMatchObject({ calls: 4, cached_calls: 4, cost_usd: 0, input_tokens: first.report.totals.usage.input_tokens });
  });
});
