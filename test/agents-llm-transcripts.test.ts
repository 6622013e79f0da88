// Transcripts of the Responses and Anthropic APIs (the fakes of ours that validate every request),
// through the real runner: every call the server answered is in the episode's transcript, with the
// usage run.json counts; `state: provider` shows only the input it sent; reasoning summaries and
// thinking are the reasoning; a native compaction call is marked; `arcbench verify` agrees.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversations } from '../src/runner/export/messagesExport.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { verifyRunFolder } from '../src/runner/results/verifyRun.ts';
import { readTranscript, type TranscriptCall } from '../src/runfolder/transcriptFile.ts';
import { startFakeAnthropicServer } from './support/fakeAnthropicServer.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { startFakeResponsesServer } from './support/fakeResponsesServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFake } from './support/llmRun.ts';

const responses = useFake(startFakeResponsesServer);
const anthropic = useFake(startFakeAnthropicServer);
const crat = levelOneToolCalls('crat');

async function play(
  api: 'responses' | 'anthropic',
  baseUrl: string,
  folder: ReturnType<typeof responses.newFolder>,
  params: Record<string, unknown>,
  maxActions: number,
) {
  const run = await runLlmExperiment(folder, {
    name: `${api}-transcripts`,
    games: [crat.gameId],
    params: {
      api,
      model: 'fake-model',
      base_url: baseUrl,
      api_key: SECRET_KEY,
      pricing: { input: 2, cached_input: 0.2, cache_write: 2.5, output: 8 },
      ...params,
    },
    budgets: { max_actions: maxActions },
  });
  const episode = firstOf(run.episodesFromFile, 'episode');
  const calls = await readTranscript(join(run.out, episode.transcript!));
  return { run, episode, calls };
}

const usageSum = (calls: readonly TranscriptCall[], field: 'input_tokens' | 'cached_input_tokens' | 'output_tokens' | 'reasoning_tokens') =>
  calls.reduce((sum, call) => sum + call.usage[field], 0);

/** Every call in the transcript, with the figures run.json totals, and verify finds nothing to say. */
async function expectWholeAndVerified(run: Awaited<ReturnType<typeof play>>, served: number): Promise<void> {
  const { calls, episode } = run;
  expect(calls).toHaveLength(served);
  expect(calls.map((c) => [c.step, c.kind, c.usage.input_tokens, c.usage.output_tokens])).toEqual(
    episode.model_calls!.map((c) => [c.step, c.kind, c.input_tokens, c.output_tokens]),
  );
  const totals = run.run.runJson.totals.usage;
  for (const field of ['input_tokens', 'cached_input_tokens', 'output_tokens', 'reasoning_tokens'] as const) expect(usageSum(calls, field)).toBe(totals[field]);
  expect(calls.reduce((sum, c) => sum + (c.usage.cost_usd ?? 0), 0)).toBeCloseTo(totals.cost_usd, 12);
  expect((await verifyRunFolder(run.run.out)).problems).toEqual([]);
}

/** Tools in the Chat Completions shape, whichever API offered them: one schema for the whole export. */
function expectChatTools(tools: unknown[] | undefined, offered: number): void {
  expect(tools).toHaveLength(offered);
  for (const tool of tools!) {
    expect(Object.keys(tool as object).sort()).toEqual(['function', 'type']);
    expect(tool).toMatchObject({ type: 'function', function: { name: expect.any(String), parameters: { type: 'object' } } });
  }
}

describe('transcripts of the Responses API', () => {
  it('state: provider: each call holds only the input it sent, the instructions, tools and params, the tool call and the reasoning summary', async () => {
    responses.server.script(...crat.calls.slice(0, 3).map((call, i) => ({ toolCalls: [call], reasoning: `summary ${i}` })));
    const run = await play('responses', responses.server.baseUrl, responses.newFolder(), { state: 'provider', reasoning_effort: 'low' }, 3);
    await expectWholeAndVerified(run, responses.server.requests.length);
    const [first, second] = run.calls as [TranscriptCall, TranscriptCall];
    expect(second.messages).toEqual(responses.server.request(1).body.input);
    expect(second.messages.map((item) => (item as { type: string }).type)).toEqual(['function_call_output', 'message']);
    expect(second.params).toMatchObject({ model: 'fake-model', previous_response_id: responses.server.usages[0]!.id, reasoning: { effort: 'low' } });
    expect(first.instructions).toBe(responses.server.request(0).body.instructions);
    expect(first.tools).toEqual(responses.server.request(0).body.tools);
    expect(first.response).toMatchObject({ reasoning: 'summary 0', tool_calls: [{ type: 'function', function: { name: crat.calls[0]!.name } }] });
    expect((first.response.output as Array<{ type: string }>).map((item) => item.type)).toContain('reasoning');
  });

  it('export --format messages turns the input items into chat messages: the system, the tool call and its result, the turn', async () => {
    responses.server.script(...crat.calls.slice(0, 2).map((call) => ({ toolCalls: [call], reasoning: 'r' })));
    const run = await play('responses', responses.server.baseUrl, responses.newFolder(), { state: 'harness' }, 2);
    const [conversation] = await conversations(readRunFolder(run.run.out));
    // The reasoning item sent back with its tool call has no chat form: it is kept as it is, where it was sent.
    const roles = conversation!.messages.map((m) => (m as { role?: string; type?: string }).role ?? (m as { type: string }).type);
    expect(roles).toEqual(['system', 'user', 'reasoning', 'assistant', 'tool', 'user', 'assistant']);
    expect(conversation!.messages[1]).toMatchObject({ role: 'user', content: [{ type: 'text', text: expect.stringMatching(/^Game: /) }] });
    expect(conversation!.messages[3]).toMatchObject({ tool_calls: [{ type: 'function', function: { name: crat.calls[0]!.name } }] });
    expectChatTools(conversation!.tools, responses.server.request(0).body.tools.length);
    // The harness that shaped the conversation comes with it, from the run's harness card.
    expect(conversation!.harness).toMatchObject({ agent: 'llm', api: 'responses', state_mode: 'harness', frame_format: 'text' });
  });

  it('export --format messages follows a state: provider chain back: the whole conversation, not only what the last call sent', async () => {
    responses.server.script(...crat.calls.slice(0, 3).map((call) => ({ toolCalls: [call], reasoning: 'r' })));
    const run = await play('responses', responses.server.baseUrl, responses.newFolder(), { state: 'provider' }, 3);
    const [conversation] = await conversations(readRunFolder(run.run.out));
    const roles = conversation!.messages.map((m) => (m as { role: string }).role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'tool', 'user', 'assistant']);
    expect(conversation!.messages[2]).toMatchObject({ tool_calls: [{ function: { name: crat.calls[0]!.name } }] });
    expect(conversation!.messages[8]).toMatchObject({ tool_calls: [{ function: { name: crat.calls[2]!.name } }] });
  });

  it('state: stateless with native compaction: the compact call is marked, and every call is counted once', async () => {
    responses.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], reasoning: 'probe' }));
    const run = await play(
      'responses',
      responses.server.baseUrl,
      responses.newFolder(),
      { state: 'stateless', compaction: 'native', context_tokens: 1_000, recent_turns: 1 },
      5,
    );
    await expectWholeAndVerified(run, responses.server.requests.length);
    const compactions = run.calls.filter((c) => c.kind === 'compaction');
    expect(compactions).toHaveLength(responses.server.requests.filter((r) => r.path.endsWith('/responses/compact')).length);
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(firstOf(compactions, 'compaction').response.output).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'compaction' })]));
    expect(run.calls.find((c) => c.kind === 'action')!.params).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
  });
});

describe('transcripts of the Anthropic Messages API', () => {
  it('holds system, messages, tools and thinking params; the tool_use as a tool call, the thinking as the reasoning', async () => {
    anthropic.server.script(...crat.calls.slice(0, 3).map((call, i) => ({ toolCalls: [call], thinking: `thought ${i}` })));
    const run = await play('anthropic', anthropic.server.baseUrl, anthropic.newFolder(), { thinking_budget: 1_024 }, 3);
    await expectWholeAndVerified(run, anthropic.server.requests.length);
    const [first, second] = run.calls as [TranscriptCall, TranscriptCall];
    expect(second.messages).toEqual(anthropic.server.request(1).body.messages);
    expect(first.instructions).toEqual(anthropic.server.request(0).body.system);
    expect(first.tools).toEqual(anthropic.server.request(0).body.tools);
    expect(first.params).toMatchObject({ model: 'fake-model', thinking: { type: 'enabled', budget_tokens: 1_024 } });
    expect(first.response).toMatchObject({ reasoning: 'thought 0', tool_calls: [{ type: 'function', function: { name: crat.calls[0]!.name } }] });
    const [conversation] = await conversations(readRunFolder(run.run.out));
    expectChatTools(conversation!.tools, anthropic.server.request(0).body.tools.length);
  });

  it('a native compaction call is marked, its block is the reply, and verify agrees', async () => {
    anthropic.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], thinking: 'probe' }));
    const run = await play(
      'anthropic',
      anthropic.server.baseUrl,
      anthropic.newFolder(),
      { compaction: 'native', context_tokens: 1_000, recent_turns: 1, thinking_budget: 1_024 },
      5,
    );
    await expectWholeAndVerified(run, anthropic.server.requests.length);
    const compaction = firstOf(
      run.calls.filter((c) => c.kind === 'compaction'),
      'compaction call',
    );
    expect(compaction.params).toMatchObject({ compaction: { type: 'summarize' } });
    expect(compaction.response.content).toBe(anthropic.server.compactionsIssued[0]!.content);
  });
});
