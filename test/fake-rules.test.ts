/**
 * The fake model servers refuse what the real APIs refuse: one request per documented rule, sent as is,
 * answered 400 with a sentence naming what is wrong. These keep the fakes from drifting back to
 * lenient, where an agent's invalid request would pass every test and fail on the real API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from './support/fakeAnthropicServer.ts';
import { startFakeModelServer, type FakeModelServer } from './support/fakeModelServer.ts';
import { startFakeResponsesServer, type FakeResponsesServer } from './support/fakeResponsesServer.ts';

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('the chat fake', () => {
  let chat: FakeModelServer;
  beforeAll(async () => {
    chat = await startFakeModelServer({ fallback: () => ({ text: 'ok' }) });
  });
  afterAll(() => chat.close());
  const url = () => `${chat.baseUrl}/chat/completions`;
  const user = { role: 'user', content: 'play' };

  it('answers a valid request', async () => {
    expect((await post(url(), { model: 'm', messages: [user] })).status).toBe(200);
  });

  it('refuses a field ChatCompletionCreateParams does not have', async () => {
    const answer = await post(url(), { model: 'm', messages: [user], max_output_tokens: 10 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("Unknown parameter: 'max_output_tokens'");
  });

  it('refuses an assistant message with neither content nor tool_calls', async () => {
    const answer = await post(url(), { model: 'm', messages: [user, { role: 'assistant', content: null }, user] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('messages[1].content');
  });

  it('refuses a tool message that answers no tool call', async () => {
    const answer = await post(url(), {
      model: 'm',
      messages: [user, { role: 'assistant', content: 'hm' }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("role 'tool'");
  });
});

describe('the Responses fake', () => {
  let responses: FakeResponsesServer;
  beforeAll(async () => {
    responses = await startFakeResponsesServer();
  });
  afterAll(() => responses.close());
  const url = () => `${responses.baseUrl}/responses`;
  const user = { type: 'message', role: 'user', content: 'play' };

  it('refuses a function_call replayed without the reasoning item it came with, and takes it with that item', async () => {
    responses.script({ reasoning: 'thinking', toolCalls: [{ name: 'ACTION1', arguments: {} }] });
    const first = await post(url(), { model: 'o4-mini', input: [user] });
    expect(first.status).toBe(200);
    const [reasoning, call] = first.body.output;
    const output = { type: 'function_call_output', call_id: call.call_id, output: 'moved' };
    const without = await post(url(), { model: 'o4-mini', input: [user, call, output] });
    expect(without.status).toBe(400);
    expect(without.body.error.message).toBe(`Item '${call.id}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning.id}'.`);
    responses.script({ text: 'done' });
    expect((await post(url(), { model: 'o4-mini', input: [user, reasoning, call, output] })).status).toBe(200);
  });

  it('sends reasoning summaries only when reasoning.summary asks for them', async () => {
    responses.script({ reasoning: 'thinking', text: 'a' }, { reasoning: 'thinking', text: 'b' });
    const unasked = await post(url(), { model: 'o4-mini', input: [user] });
    expect(unasked.body.output[0]).toMatchObject({ type: 'reasoning', summary: [] });
    const asked = await post(url(), { model: 'o4-mini', input: [user], reasoning: { summary: 'auto' } });
    expect(asked.body.output[0].summary).toEqual([{ type: 'summary_text', text: 'thinking' }]);
  });

  it('refuses a field ResponseCreateParams does not have', async () => {
    const answer = await post(url(), { model: 'o4-mini', input: [user], max_tokens: 10 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("Unknown parameter: 'max_tokens'");
  });
});

describe('the Anthropic fake', () => {
  let anthropic: FakeAnthropicServer;
  beforeAll(async () => {
    anthropic = await startFakeAnthropicServer();
  });
  afterAll(() => anthropic.close());
  const url = () => `${anthropic.baseUrl}/v1/messages`;
  const base = { model: 'claude', max_tokens: 2_000 };
  const user = { role: 'user', content: 'play' };
  const beta = { 'anthropic-beta': 'compact-2026-09-04' };

  it('refuses the compaction parameter without its beta header, and takes it with the header', async () => {
    const without = await post(url(), { ...base, messages: [user], compaction: { type: 'summarize' } });
    expect(without.status).toBe(400);
    expect(without.body.error.message).toContain('compact-2026-09-04');
    anthropic.script({});
    expect((await post(url(), { ...base, messages: [user], compaction: { type: 'summarize' } }, beta)).status).toBe(200);
  });

  it('refuses a compaction block without its beta header', async () => {
    anthropic.script({});
    const compacted = await post(url(), { ...base, messages: [user], compaction: { type: 'summarize' } }, beta);
    const block = compacted.body.content[0];
    const later = { ...base, messages: [{ role: 'user', content: [block, { type: 'text', text: 'next' }] }] };
    const without = await post(url(), later);
    expect(without.status).toBe(400);
    expect(without.body.error.message).toContain('messages.0.content.0');
    anthropic.script({ text: 'ok' });
    expect((await post(url(), later, beta)).status).toBe(200);
  });

  it('refuses a fifth cache_control breakpoint', async () => {
    const marked = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const answer = await post(url(), { ...base, messages: [{ role: 'user', content: ['a', 'b', 'c', 'd', 'e'].map(marked) }] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('A maximum of 4 blocks with cache_control');
  });

  it('refuses a thinking block not returned unchanged with its signature', async () => {
    anthropic.script({ thinking: 'plan', toolCalls: [{ name: 'ACTION1', arguments: {} }] });
    const thinking = { type: 'enabled', budget_tokens: 1_024 };
    const first = await post(url(), { ...base, thinking, messages: [user] });
    const [block, use] = first.body.content;
    const answer = (thought: object) => [
      user,
      { role: 'assistant', content: [thought, { type: 'tool_use', id: use.id, name: use.name, input: use.input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'moved' }] },
    ];
    const changed = await post(url(), { ...base, thinking, messages: answer({ ...block, thinking: 'another plan' }) });
    expect(changed.status).toBe(400);
    expect(changed.body.error.message).toContain('Invalid `signature` in `thinking` block');
    anthropic.script({ text: 'ok' });
    expect((await post(url(), { ...base, thinking, messages: answer(block) })).status).toBe(200);
  });
});
