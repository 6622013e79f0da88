/**
 * Issue 31: every model call a Python agent makes is counted, kept and budgeted, without a line of its
 * code changed. The official harness's LLM template (llm_agents.py:LLM, as it lies in its checkout)
 * runs under arcbench with the stand-in `openai` package of test/fixtures/python-sdk (the real SDK's
 * wire format), its calls going through the episode's model gateway to a fake upstream.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from './support/fakeModelServer.ts';
import { OFFICIAL_TEMPLATES } from './support/officialCode.ts';
import { recordedActions } from './support/pythonAgents.ts';

const ROOT = join(import.meta.dirname, '..');
const SDK_STAND_IN = join(ROOT, 'test', 'fixtures', 'python-sdk');
const LLM_TEMPLATE = `${join(OFFICIAL_TEMPLATES, 'llm_agents.py')}:LLM`;
const KEY = 'sk-gateway-test-0123456789abcdefSECRET';
const PRICES = { input: 2, output: 8 };

/** The template asks with `functions` for its action (the legacy function_call), without them to observe. */
const OBSERVE_USAGE = { prompt_tokens: 100, completion_tokens: 10 };
const ACT_USAGE = { prompt_tokens: 120, completion_tokens: 7 };

function reply(request: RecordedRequest, index: number) {
  if (request.body.functions === undefined) return { text: `observation ${index}: the grid is still`, usage: OBSERVE_USAGE };
  const message = { role: 'assistant', content: null, function_call: { name: 'ACTION1', arguments: '{}' } };
  const usage = { ...ACT_USAGE, total_tokens: ACT_USAGE.prompt_tokens + ACT_USAGE.completion_tokens };
  const body = {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 1,
    model: request.body.model,
    choices: [{ index: 0, message, finish_reason: 'function_call' }],
    usage,
  };
  return { rawBody: JSON.stringify(body) };
}

/** What the fake billed: the usage of every call it answered, at PRICES. */
function billed(requests: readonly RecordedRequest[]) {
  const usages = requests.map((request) => (request.body.functions === undefined ? OBSERVE_USAGE : ACT_USAGE));
  const input = usages.reduce((sum, usage) => sum + usage.prompt_tokens, 0);
  const output = usages.reduce((sum, usage) => sum + usage.completion_tokens, 0);
  return { calls: usages.length, input, output, dollars: Math.round(((input * PRICES.input + output * PRICES.output) / 1e6) * 1e12) / 1e12 };
}

let dir: string;
let fake: FakeModelServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-gateway-'));
  fake = await startFakeModelServer({ fallback: reply });
});

afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `gatewayExtra` adds fields to the entry's model_gateway (", api_key: …"). */
function experiment(name: string, budgets: string, use = LLM_TEMPLATE, gatewayExtra = ''): string {
  const file = join(dir, `${name}.yaml`);
  const gateway = `{ upstream: "${fake.baseUrl}", pricing: { input: ${PRICES.input}, output: ${PRICES.output} }${gatewayExtra} }`;
  const lines = [
    `name: ${name}`,
    'games: [slid]',
    'agents:',
    `  - { use: ${JSON.stringify(use)}, label: llm, model_gateway: ${gateway} }`,
    `budgets: ${budgets}`,
    'recordings: jsonl',
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Runs with the stand-in SDK importable and the key in the agent's environment, as a user's shell would have them. */
async function run(file: string, out: string): Promise<void> {
  const saved = { PYTHONPATH: process.env.PYTHONPATH, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
  process.env.PYTHONPATH = SDK_STAND_IN;
  process.env.OPENAI_API_KEY = KEY;
  try {
    await runExperiment(await loadExperiment(file), { out });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const arcbench = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'arcbench.js'), ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });

describe('the official LLM template through the model gateway', () => {
  let out: string;
  let requests: RecordedRequest[];

  beforeAll(async () => {
    out = join(dir, 'played');
    await run(experiment('played', '{ max_actions: 3 }'), out);
    requests = [...fake.requests];
    fake.requests.length = 0;
  }, 120_000);

  it('plays to its budget, each call counted with the tokens and dollars the upstream billed', () => {
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episode?.error).toBeUndefined();
    expect(episode?.outcome).toBe('budget');
    const bill = billed(requests);
    expect(bill.calls).toBe(6);
    expect(episode?.usage).toMatchObject({ calls: bill.calls, input_tokens: bill.input, output_tokens: bill.output, cost_usd: bill.dollars });
    // Today's loop sends the template's opening RESET (decided without a model) as step 0; its calls come after.
    expect(episode?.model_calls?.map((call) => call.step)).toEqual([1, 1, 2, 2, 3, 3]);
    // The agent's own key went upstream, in the header its SDK put it in.
    expect(requests.every((request) => request.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('keeps each call as a transcript, and export --format messages writes the conversation', () => {
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episode?.transcript).toBeDefined();
    const exported = arcbench('export', out, '--format', 'messages');
    expect(exported.status, exported.stderr).toBe(0);
    const [record] = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(record.model).toBe('gpt-4o-mini');
    expect(record.messages.at(-1)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ type: 'function', function: { name: 'ACTION1', arguments: '{}' } }],
    });
    expect(record.messages.some((message: { content?: unknown }) => String(message.content).startsWith('observation'))).toBe(true);
  });

  it('passes arcbench verify: the transcripts and the usage agree', () => {
    const verified = arcbench('verify', out);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  });

  it('writes the key to no file of the run folder', () => {
    for (const file of filesUnder(out)) expect(readFileSync(file, 'utf8').includes(KEY), file).toBe(false);
  });
});

describe("the config's key", () => {
  it("goes upstream in place of the agent's, and reaches no file of the run folder", async () => {
    const configKey = 'sk-config-key-9876543210fedcbaSECRET';
    process.env.ARCBENCH_GATEWAY_TEST_KEY = configKey;
    const out = join(dir, 'config-key');
    try {
      await run(experiment('config-key', '{ max_actions: 1 }', LLM_TEMPLATE, ', api_key: "${ARCBENCH_GATEWAY_TEST_KEY}"'), out);
    } finally {
      delete process.env.ARCBENCH_GATEWAY_TEST_KEY;
    }
    const requests = fake.requests.splice(0);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((request) => request.headers.authorization === `Bearer ${configKey}`)).toBe(true);
    for (const file of filesUnder(out)) expect(readFileSync(file, 'utf8').includes(configKey), file).toBe(false);
  }, 120_000);
});

describe('a dollar budget with the gateway', () => {
  it('refuses the next call once it is spent, as the provider refuses a spent account, and the episode ends as cost', async () => {
    const out = join(dir, 'spent');
    // The first call (observing) costs $0.00028 of a $0.0001 budget: the second is refused.
    await run(experiment('spent', '{ max_actions: 3, max_cost_usd: 0.0001 }'), out);
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(fake.requests).toHaveLength(1);
    fake.requests.length = 0;
    expect(episode?.outcome).toBe('cost');
    expect(episode?.stop_reason).toMatch(
      /dollar budget \(budgets\.max_cost_usd = \$0\.0001\) is spent.*the agent then failed: .*RateLimitError.*insufficient_quota/s,
    );
    expect(episode?.usage).toMatchObject({ calls: 1, cost_usd: billed([{ body: {} } as RecordedRequest]).dollars });
  }, 120_000);
});

/**
 * A user's agent that streams its answer with the SDK and also reports the call's usage in its
 * reasoning (the shape published replays carry). It reads `chunk.choices[0]` of every chunk, as
 * agents do: a usage chunk it did not ask for would break it.
 */
const STREAMER = `
from arcengine import GameAction, GameState
from openai import OpenAI

from .agent import Agent


class Streamer(Agent):
    def is_done(self, frames, latest_frame):
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames, latest_frame):
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET
        stream = OpenAI().chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "which way?"}], stream=True)
        heard = "".join(chunk.choices[0].delta.content or "" for chunk in stream)
        action = GameAction.ACTION1
        action.reasoning = {"heard": heard, "usage": {"model": "gpt-4o-mini", "input_tokens": 50, "output_tokens": 3}}
        return action
`;

describe('a streamed call through the gateway', () => {
  it("reaches the agent as the stream it asked for, counted once from the stream's usage, its text in the transcript", async () => {
    mkdirSync(join(dir, 'agents'), { recursive: true });
    writeFileSync(join(dir, 'agents', 'streamer.py'), STREAMER);
    fake.setFallback(() => ({ text: 'up we go', usage: { prompt_tokens: 50, completion_tokens: 3 } }));
    const out = join(dir, 'streamed');
    try {
      await run(experiment('streamed', '{ max_actions: 2 }', './agents/streamer.py'), out);
    } finally {
      fake.setFallback(reply);
    }
    const requests = fake.requests.splice(0);
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episode?.error).toBeUndefined();
    expect(requests.map((request) => request.body.stream_options)).toEqual([{ include_usage: true }, { include_usage: true }]);
    // Two calls, each counted from the stream and not again from the usage in the agent's reasoning.
    expect(episode?.usage).toMatchObject({ calls: 2, input_tokens: 100, output_tokens: 6, cost_usd: (100 * 2 + 6 * 8) / 1e6 });
    const [, first] = await recordedActions(join(out, episode!.recording!));
    expect(first?.reasoning).toMatchObject({ calls: 1, rationale: { heard: 'up we go' } });
    const exported = arcbench('export', out, '--format', 'messages');
    expect(JSON.parse(exported.stdout).messages.at(-1)).toEqual({ role: 'assistant', content: 'up we go' });
  }, 120_000);
});
