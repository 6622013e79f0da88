// How the llm agent's providers reach the model server (agents/llm/providers/transport.ts and the
// model client's errors), against our fake servers on 127.0.0.1: a call may take all of
// request_timeout_seconds and no other limit cuts it short, a timeout is said to be the limit that was
// hit, and the episode's signal stops a call (or keeps it from being sent).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadProvider } from '../agents/llm/providers/index.ts';
import type { Provider } from '../agents/llm/providers/provider.ts';
import { dispatcherTimeouts } from '../agents/llm/providers/transport.ts';
import type { ModelRequest } from '../agents/llm/conversation.ts';
import { startRawServer } from './support/rawServer.ts';
import { SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();

const REQUEST: ModelRequest = { system: 'Play the game.', entries: [{ kind: 'user', parts: [{ type: 'text', text: 'The frame.' }] }], tools: undefined };

const providers: Provider[] = [];

afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
});

/** The chat provider as an episode makes it, no retries. */
async function chatProvider(baseUrl: string, requestTimeoutSeconds: number, signal = new AbortController().signal): Promise<Provider> {
  const provider = await loadProvider('chat', {
    model: 'fake-model',
    baseUrl,
    apiKey: SECRET_KEY,
    temperature: undefined,
    maxOutputTokens: undefined,
    maxTokensField: 'max_completion_tokens',
    reasoningEffort: undefined,
    thinkingBudget: undefined,
    state: 'harness',
    seed: undefined,
    pricing: undefined,
    requestTimeoutMs: requestTimeoutSeconds * 1000,
    maxRetries: 0,
    signal,
    cache: undefined,
    episodeSeed: 1,
    reportUsage: () => undefined,
  });
  providers.push(provider);
  return provider;
}

/** How the call ended and after how many milliseconds. */
async function timed(call: Promise<unknown>): Promise<{ error: Error | undefined; ms: number }> {
  const started = performance.now();
  const error = await call.then(
    () => undefined,
    (failure: Error) => failure,
  );
  return { error, ms: performance.now() - started };
}

describe('the dispatcher the providers send through', () => {
  it('allows a call with request_timeout_seconds: 600 the whole 600 s, for its headers and between parts of its body', () => {
    expect(dispatcherTimeouts(600_000)).toEqual({ headersTimeout: 600_000, bodyTimeout: 600_000 });
  });
});

// The process's global dispatcher stands in, with shorter limits, for undici's default one (300 s for
// the headers and between body chunks), which a call of the providers must not be bound by.
describe('a call’s time limit is request_timeout_seconds, not the process’s dispatcher’s', () => {
  let previous: Dispatcher;
  const short = new Agent({ headersTimeout: 300, bodyTimeout: 300 });

  beforeAll(() => {
    previous = getGlobalDispatcher();
    setGlobalDispatcher(short);
  });

  afterAll(async () => {
    setGlobalDispatcher(previous);
    await short.close();
  });

  it('waits for a model that answers after the dispatcher’s own limit', async () => {
    fake.server.script({ text: 'worth the wait', delayMs: 1_500 });
    const reply = await (await chatProvider(fake.server.baseUrl, 5)).ask(REQUEST);
    expect(reply.text).toBe('worth the wait');
  });

  it('gives up a server that never answers after request_timeout_seconds, and says that setting is the limit it hit', async () => {
    fake.server.script({ hang: true });
    // 2 s: undici checks its limits about once a second, so the dispatcher's 300 ms ends a call after 1–1.5 s.
    const { error, ms } = await timed((await chatProvider(fake.server.baseUrl, 2)).ask(REQUEST));
    expect(ms).toBeGreaterThanOrEqual(1_950);
    expect(ms).toBeLessThan(4_000);
    expect(error?.message).toMatch(
      /^the model server at http:\/\/127\.0\.0\.1:\d+\/v1 did not answer within 2 s; raise params\.request_timeout_seconds or check the server$/,
    );
    expect(fake.server.requests).toHaveLength(1);
  });

  it('gives up an answer that stops half-way after request_timeout_seconds without a part, and says so', async () => {
    fake.server.script({ stall: true });
    const { error, ms } = await timed((await chatProvider(fake.server.baseUrl, 1)).ask(REQUEST));
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(4_000);
    expect(error?.message).toMatch(/began its answer, then sent nothing more for 1 s \(params\.request_timeout_seconds\); check the server$/);
  });
});

describe('a timeout that is not request_timeout_seconds', () => {
  it('is said to be another limit, not one raising the setting would lift (a TLS handshake never answered)', async () => {
    const silent = await startRawServer(() => undefined);
    try {
      const { error, ms } = await timed((await chatProvider(`${silent.url.replace('http:', 'https:')}/v1`, 30)).ask(REQUEST));
      // undici's connect timeout is 10 s; the call gave up then, long before the 30 s asked for.
      expect(ms).toBeLessThan(20_000);
      expect(error?.message).toMatch(
        /timed out after \d+\.\d s, before params\.request_timeout_seconds \(30 s\) ran out: .*raising that setting will not help; check params\.base_url/,
      );
      expect(error?.message).not.toMatch(/raise params\.request_timeout_seconds/);
    } finally {
      await silent.close();
    }
  }, 30_000);
});

describe('the episode’s signal and the connection', () => {
  it('sends nothing when the episode’s signal is already aborted', async () => {
    const provider = await chatProvider(fake.server.baseUrl, 5, AbortSignal.abort());
    await expect(provider.ask(REQUEST)).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.server.requests).toHaveLength(0);
  });

  it('stops a call in flight when the episode’s signal is aborted, and lets its connection go', async () => {
    fake.server.script({ hang: true });
    const episode = new AbortController();
    const asked = timed((await chatProvider(fake.server.baseUrl, 30, episode.signal)).ask(REQUEST));
    await vi.waitFor(() => expect(fake.server.hanging()).toBe(1));
    episode.abort();
    const { error, ms } = await asked;
    expect(error).toBeDefined();
    expect(ms).toBeLessThan(5_000);
    await vi.waitFor(() => expect(fake.server.hanging()).toBe(0));
  });

  it('fails clearly when nothing listens at the address, naming the refusal', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect((await chatProvider(`http://127.0.0.1:${port}/v1`, 5)).ask(REQUEST)).rejects.toThrow(
      new RegExp(`could not be reached: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}; check params\\.base_url$`),
    );
  });
});
