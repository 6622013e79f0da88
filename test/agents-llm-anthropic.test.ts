// The llm agent on Anthropic's Messages API (a fake of ours that validates every request against the
// SDK's request types and the API's rules for thinking and tool results), through the real runner and
// reference service: a level played with thinking on; the thinking blocks go back unchanged with their
// signatures; cache breakpoints mark the stable prefix and the cache is read from the second call on;
// cache reads and writes are priced apart; errors and refusals are handled as with the other APIs.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { openTelemetryOption } from '../agents/llm/providers/anthropic.ts';
import { type AnthropicUsage, startFakeAnthropicServer } from './support/fakeAnthropicServer.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFake } from './support/llmRun.ts';

const PRICING = { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 };
const dollars = (u: AnthropicUsage) =>
  (u.input_tokens * PRICING.input +
    u.cache_read_input_tokens * PRICING.cached_input +
    u.cache_creation_input_tokens * PRICING.cache_write +
    u.output_tokens * PRICING.output) /
  1e6;

const fake = useFake(startFakeAnthropicServer);
const crat = levelOneToolCalls('crat');

async function play(params: Record<string, unknown>, maxActions: number) {
  const run = await runLlmExperiment(fake.newFolder(), {
    name: 'anthropic',
    games: [crat.gameId],
    params: { api: 'anthropic', model: 'claude-fake', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING, ...params },
    budgets: { max_actions: maxActions },
  });
  return { run, episode: firstOf(run.episodesFromFile, 'episode') };
}

type Block = { type: string; cache_control?: unknown; signature?: string };
const blocks = (index: number): Block[] =>
  fake.server.request(index).body.messages.flatMap((m: { content: string | Block[] }) => (typeof m.content === 'string' ? [] : m.content));

describe('the Anthropic Messages API', () => {
  it('plays a level with thinking on; usage and dollars (cache reads and writes priced apart) are the server’s figures', async () => {
    fake.server.script(...crat.calls.map((call, i) => ({ toolCalls: [call], thinking: `step ${i}: the crate goes right` })));
    const { run, episode } = await play({ thinking_budget: 2_048 }, crat.calls.length);
    expect(fake.server.refused).toEqual([]);
    expect(episode.levels_completed).toBe(1);
    const usages = fake.server.usages.map((u) => u.usage);
    const expected = {
      input_tokens: usages.reduce((s, u) => s + u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens, 0),
      cached_input_tokens: usages.reduce((s, u) => s + u.cache_read_input_tokens, 0),
      reasoning_tokens: usages.reduce((s, u) => s + u.output_tokens_details.thinking_tokens, 0),
      output_tokens: usages.reduce((s, u) => s + u.output_tokens, 0),
      calls: crat.calls.length,
    };
    expect(usages.some((u) => u.cache_creation_input_tokens > 0)).toBe(true);
    // From the third call on, the conversation so far is read from the cache.
    const last = usages.at(-1)!;
    expect(last.cache_read_input_tokens / (last.input_tokens + last.cache_read_input_tokens + last.cache_creation_input_tokens)).toBeGreaterThan(0.5);
    expect(run.runJson.totals.usage).toMatchObject(expected);
    expect(run.runJson.totals.usage.cost_usd).toBeCloseTo(
      usages.reduce((s, u) => s + dollars(u), 0),
      12,
    );
    expect(fake.server.request(0).body).toMatchObject({ model: 'claude-fake', thinking: { type: 'enabled', budget_tokens: 2_048 }, max_tokens: 4_096 + 2_048 });
  });

  it('sends the earlier thinking blocks back unchanged, before their tool use, and marks cache breakpoints on the stable prefix', async () => {
    fake.server.script(
      { toolCalls: [toolCall('ACTION1')], thinking: 'up first' },
      { toolCalls: [toolCall('ACTION2')], thinking: 'then down' },
      { toolCalls: [toolCall('ACTION3')] },
    );
    await play({ thinking_budget: 1_024 }, 3);
    expect(fake.server.refused).toEqual([]);
    const third = fake.server.request(2).body;
    const thinking = blocks(2).filter((b) => b.type === 'thinking');
    expect(thinking).toEqual(fake.server.thinkingIssued.slice(-2));
    // Each assistant turn: its thinking, then the tool use it led to; its tool result leads the next user message.
    expect(third.messages.map((m: { role: string; content: Block[] }) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['thinking', 'tool_use']],
      ['user', ['tool_result', 'text']],
      ['assistant', ['thinking', 'tool_use']],
      ['user', ['tool_result', 'text']],
    ]);
    expect(third.system).toEqual([{ type: 'text', text: expect.stringContaining('You play a turn-based puzzle game'), cache_control: { type: 'ephemeral' } }]);
    expect(third.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    expect(third.tools.slice(0, -1).every((t: Block) => t.cache_control === undefined)).toBe(true);
    const marked = blocks(2).flatMap((b, i) => (b.cache_control ? [i] : []));
    expect(marked).toEqual([4, 8]);
    // The earlier turns are the same bytes as before: the second request is a prefix of the third.
    const second = fake.server.request(1).body;
    const strip = (m: unknown) => JSON.stringify(m).replaceAll(',"cache_control":{"type":"ephemeral"}', '');
    expect(third.messages.slice(0, 3).map(strip)).toEqual(second.messages.map(strip));
    expect(fake.server.usages[2]!.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('refuses, as the API does, a thinking block whose signature changed, and names a field the API does not take', async () => {
    const send = async (extra: Record<string, unknown>) => {
      const body = {
        model: 'm',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 'forged' }] },
          { role: 'user', content: 'go on' },
        ],
        ...extra,
      };
      const response = await fetch(`${fake.server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
    };
    expect(await send({})).toEqual({ status: 400, message: 'messages.1.content.0: Invalid `signature` in `thinking` block.' });
    expect(await send({ temperature: 1 })).toEqual({ status: 400, message: "Unknown parameter: 'temperature'." });
  });

  it('shows the model its refusal, retries 529 and a malformed body, and names the key variable on a 401', async () => {
    fake.server.script(
      { text: 'I will not play.', stopReason: 'refusal' },
      { status: 529, retryAfterMs: 5 },
      { rawBody: '{"type": "message"}' },
      { toolCalls: [toolCall('ACTION1')] },
    );
    const { episode } = await play({}, 1);
    expect(episode.outcome).toBe('budget');
    expect(fake.server.requests).toHaveLength(4);
    const retry = fake.server.request(1).body.messages.at(-1).content;
    expect(retry.at(-1).text).toMatch(/^That answer could not be played: you declined to play \("I will not play\."\)/);

    fake.server.requests.length = 0;
    fake.server.script({ status: 401, message: 'invalid x-api-key' });
    const refused = await play({}, 1);
    expect(refused.episode.error!.message).toMatch(/refused the API key \(401\).*check ANTHROPIC_API_KEY or params\.api_key/);
    expect(fake.server.request(0).headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  });

  it('plays a batch of 3 actions from one reply: 3 actions, 1 call', async () => {
    fake.server.script({ toolCalls: crat.calls, thinking: 'all three at once' });
    const { episode } = await play({ max_actions_per_turn: 3, thinking_budget: 1_024 }, 3);
    expect(episode.actions).toBe(3);
    expect(episode.levels_completed).toBe(1);
    expect(fake.server.requests).toHaveLength(1);
    expect(episode.usage.calls).toBe(1);
  });

  it('replays a run from the response cache without a call', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], thinking: 'again' }));
    const experiment = {
      name: 'cached',
      games: [crat.gameId],
      params: {
        api: 'anthropic',
        model: 'claude-fake',
        base_url: fake.server.baseUrl,
        api_key: SECRET_KEY,
        pricing: PRICING,
        cache: true,
        thinking_budget: 1_024,
      },
      budgets: { max_actions: 3 },
    };
    const first = await runLlmExperiment(folder, experiment);
    expect(fake.server.requests).toHaveLength(3);
    fake.server.setFallback(() => ({ status: 500, message: 'the replay must not call the server' }));
    const second = await runLlmExperiment(folder, { ...experiment, name: 'cached-again' });
    expect(fake.server.requests).toHaveLength(3);
    expect(second.report.totals.usage).toMatchObject({ calls: 3, cached_calls: 3, cost_usd: 0, input_tokens: first.report.totals.usage.input_tokens });
  });

  it('compaction: native asks for a signed compaction block, labelled and counted once, and sends it back first, unchanged', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], thinking: 'probe' }));
    const { episode } = await play({ compaction: 'native', context_tokens: 1_000, recent_turns: 1, thinking_budget: 1_024 }, 5);
    expect(fake.server.refused).toEqual([]);
    expect(episode.actions).toBe(5);
    const compactions = fake.server.requests.filter((r) => r.body.compaction !== undefined);
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(firstOf(compactions, 'compaction request').headers['anthropic-beta']).toContain('compact-2026-09-04');
    const calls = episode.model_calls!;
    const compactionCalls = calls.filter((c) => c.kind === 'compaction');
    expect(compactionCalls).toHaveLength(compactions.length);
    const first = firstOf(compactionCalls, 'compaction call');
    expect(calls.filter((c) => c.step === first.step).map((c) => c.kind)).toEqual(['compaction', 'action']);
    const usage = fake.server.usages.find((u) => u.kind === 'compaction')!.usage;
    // The compaction request reads the conversation from the cache the call before it wrote, not at full price.
    expect(usage.cache_read_input_tokens).toBeGreaterThan(usage.input_tokens);
    // Every later request carries the beta's block, so it names the beta too (the GA API refuses the block).
    const later = fake.server.requests.slice(fake.server.requests.indexOf(firstOf(compactions, 'compaction request')) + 1);
    for (const request of later) expect(request.headers['anthropic-beta']).toContain('compact-2026-09-04');
    expect(first.input_tokens).toBe(usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens);
    // The next request starts with the block as it was issued, then the new turn.
    const next = fake.server.request(fake.server.requests.indexOf(firstOf(compactions, 'compaction request')) + 1).body;
    expect(next.messages[0].role).toBe('user');
    expect(next.messages[0].content[0]).toEqual(fake.server.compactionsIssued[0]);
    expect(next.messages[0].content[1].text).toMatch(/^Game: Crate Yard/);
  });

  // Newer models think adaptively (no budget) and deprecate `enabled`; the earlier thinking goes back as ever.
  it('thinks adaptively with thinking: adaptive, sending the thinking blocks back unchanged', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], thinking: 'probe' }));
    const { episode } = await play({ thinking: 'adaptive' }, 2);
    expect(fake.server.refused).toEqual([]);
    expect(episode.actions).toBe(2);
    for (const request of fake.server.requests) expect(request.body.thinking).toEqual({ type: 'adaptive' });
    expect(fake.server.request(1).body.messages[1].content[0]).toEqual(fake.server.thinkingIssued.at(-2));
  });

  it('says which thinking field to change when adaptive has a budget, or enabled has none', async () => {
    await expect(play({ thinking: 'adaptive', thinking_budget: 2_048 }, 1)).rejects.toThrow(/params\.thinking_budget: adaptive thinking takes no budget/);
    await expect(play({ thinking: 'enabled' }, 1)).rejects.toThrow(/params\.thinking_budget: thinking: enabled needs its budget/);
  });

  it("turns the SDK's OpenTelemetry spans off unless ANTHROPIC_OPEN_TELEMETRY asks for them, as the SDK reads it", () => {
    const tracing = () => new Anthropic({ apiKey: 'key', openTelemetry: openTelemetryOption() }).openTelemetry.traces.enabled;
    const before = process.env.ANTHROPIC_OPEN_TELEMETRY;
    try {
      delete process.env.ANTHROPIC_OPEN_TELEMETRY;
      expect(tracing()).toBe(false);
      process.env.ANTHROPIC_OPEN_TELEMETRY = 'true';
      expect(tracing()).toBe(true);
      process.env.ANTHROPIC_OPEN_TELEMETRY = 'false';
      expect(tracing()).toBe(false);
    } finally {
      if (before === undefined) delete process.env.ANTHROPIC_OPEN_TELEMETRY;
      else process.env.ANTHROPIC_OPEN_TELEMETRY = before;
    }
  });
});
