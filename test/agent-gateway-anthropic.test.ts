/**
 * The gateway's Anthropic side (issue 31), spoken to as the Anthropic SDK speaks (POST
 * {ANTHROPIC_BASE_URL}/v1/messages with x-api-key), forwarded to the fake Messages API: the call is
 * counted with its cached and cache-written input priced apart, kept with its system prompt, and once
 * the dollar budget is spent the next call gets Anthropic's own billing error, not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayCall, ModelGateway } from '../src/agent/gateway/modelGateway.ts';
import { type FakeAnthropicServer, startFakeAnthropicServer } from './support/fakeAnthropicServer.ts';

const PRICES = { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 };
let fake: FakeAnthropicServer;
let gateway: ModelGateway;
const calls: GatewayCall[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropicServer();
  fake.setFallback(() => ({ text: 'Up.' }));
  gateway = await ModelGateway.start({
    settings: { upstream: 'http://127.0.0.1:9/v1', anthropic_upstream: fake.baseUrl, pricing: { 'claude-sonnet-4': PRICES } },
    maxCostUsd: 0.000001,
    onCall: (call) => void calls.push(call),
  });
});

afterAll(async () => {
  await gateway.close();
  await fake.close();
});

function messages(): Promise<Response> {
  return fetch(`${gateway.env().ANTHROPIC_BASE_URL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 64,
      system: 'You play a grid game.',
      messages: [{ role: 'user', content: 'Which way?' }],
    }),
  });
}

describe("the gateway's Anthropic route", () => {
  it("forwards a call, counts it from the answer at the model's prices and keeps it; the next, past the budget, gets a 402 billing_error", async () => {
    const first = await messages();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { content: unknown }).content).toMatchObject([{ type: 'text', text: 'Up.' }]);
    expect(fake.request(0).headers['x-api-key']).toBe('sk-ant-test');
    const billed = fake.usages[0]!.usage;
    const input = billed.input_tokens + billed.cache_read_input_tokens + billed.cache_creation_input_tokens;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.usage).toMatchObject({ model: 'claude-sonnet-4-20250514', input_tokens: input, output_tokens: billed.output_tokens });
    expect(calls[0]!.usage.cost_usd).toBeCloseTo((billed.input_tokens * 3 + billed.output_tokens * 15) / 1e6, 12);
    expect(calls[0]!.request).toMatchObject({
      instructions: 'You play a grid game.',
      messages: [{ role: 'user', content: 'Which way?' }],
      params: { max_tokens: 64 },
    });

    const second = await messages();
    expect(second.status).toBe(402);
    expect(second.headers.get('x-should-retry')).toBe('false');
    expect(await second.json()).toEqual({
      type: 'error',
      error: { type: 'billing_error', message: expect.stringMatching(/dollar budget \(budgets\.max_cost_usd = \$0\.000001\) is spent/) },
    });
    expect(fake.requests).toHaveLength(1);
  });
});
