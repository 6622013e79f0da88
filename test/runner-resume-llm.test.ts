/**
 * `kill -9` of a real `arcbench run` in the middle of an `llm` episode (batches of 3), against our fake
 * Chat Completions server, and our fake Responses server with `state: provider` (the agent's restored
 * chain names the right previous response), and a real `arcbench serve --backends 3` behind a proxy of ours that keeps the
 * service's action log; then `arcbench resume`. Killed while a model call is in flight, or with an
 * action of a batch held before it reached the service, the episode goes on on its own session at the
 * step after the last one recorded, the agent restored from its checkpoint: the service saw the
 * uninterrupted episode's actions, each once; the model server answered the uninterrupted episode's
 * calls, each once (the one in flight at the kill is asked again, never one of a step already played);
 * usage and dollars are exactly what the model server billed; the recording is the uninterrupted one's.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingEntry } from '../src/recording/recordingReader.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { currentEpisodes, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type HoldPlan, type LoggedCommand, startActionLogProxy } from './support/actionLogProxy.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { type FakeReply, type FakeToolCall, type FakeUsage, type RecordedRequest, startFakeModelServer, toolCall } from './support/fakeModelServer.ts';
import { startFakeResponsesServer } from './support/fakeResponsesServer.ts';
import { commandMoves, recordingOf } from './support/trappedEpisode.ts';

const KEY = 'continue-llm-key';
const MODEL_KEY = 'sk-test-continue-llm-0c4e';
const ACTIONS = 14;
const PRICING = { input: 2, cached_input: 0.5, output: 8 };

/**
 * A request as this test compares it: the tool call ids the fake server named by its own request count
 * (which runs on across the scenarios) read as one name.
 */
const requestText = (request: RecordedRequest) =>
  JSON.stringify(request.body)
    .replace(/call_\d+_\d+/g, 'call_id')
    .replace(/\b(resp|rs|fc|msg)_\w+/g, '$1_id')
    .replace(/gAAAA[A-Za-z0-9+/=]+/g, 'encrypted');

/** The model's answer and its bill, functions of the request alone: every run of the episode gets the same. */
function answerOf(request: RecordedRequest): { reply: FakeReply; usage: FakeUsage } {
  const size = requestText(request).length;
  const batch = Array.from({ length: 3 }, (_, i) =>
    toolCall(`ACTION${1 + ((size + i) % 4)}`, { rationale: `move ${i}`, prediction: 'something moves', expect_change: (size + i) % 7 !== 0 }),
  );
  const usage = { prompt_tokens: Math.ceil(size / 4), cached_tokens: Math.floor(size / 8), completion_tokens: 20 + (size % 13) };
  return { reply: { toolCalls: batch, usage }, usage };
}

const dollarsOf = (usages: readonly FakeUsage[]) =>
  usages.reduce(
    (sum, u) =>
      sum +
      ((u.prompt_tokens - (u.cached_tokens ?? 0)) * PRICING.input + (u.cached_tokens ?? 0) * PRICING.cached_input + u.completion_tokens * PRICING.output) / 1e6,
    0,
  );

function experimentYaml(target: string, baseUrl: string, apiParams: Record<string, unknown>): string {
  const params = { model: 'fake-model', base_url: baseUrl, api_key: MODEL_KEY, pricing: PRICING, max_actions_per_turn: 3, ...apiParams };
  return [
    'name: continued-llm',
    `target: ${target}`,
    'games: [crat]',
    'agents:',
    '  - use: llm',
    `    params: ${JSON.stringify(params)}`,
    'episodes: 1',
    'seed: 5',
    `budgets: { max_actions: ${ACTIONS} }`,
    'concurrency: 1',
    '',
  ].join('\n');
}

/**
 * A recording's lines without what differs from session to session (time, guid) and from server to
 * server (an action's token figures: the Responses fake's prefix cache remembers every run it served).
 */
const played = (entries: readonly RecordingEntry[]) =>
  entries.map(({ data }) => {
    const input = (data as { action_input?: { reasoning?: unknown } }).action_input;
    const reasoning = input?.reasoning as Record<string, unknown> | null | undefined;
    if (reasoning === null || typeof reasoning !== 'object' || !('calls' in reasoning)) return { ...data, guid: '' };
    const { cached_input_tokens: _c, cost_usd: _d, input_tokens: _i, output_tokens: _o, reasoning_tokens: _r, ...rest } = reasoning;
    return { ...data, guid: '', action_input: { ...input, reasoning: rest } };
  });

/** The model server of one api: how the agent is pointed at it, what it answers, what it billed. */
interface ModelApi {
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly server: {
    readonly baseUrl: string;
    setFallback(responder: ((request: RecordedRequest) => unknown) | undefined): void;
    hanging(): number;
    close(): Promise<void>;
  };
  /** The reply to a request (the fake counts the usage itself when the reply names none). */
  reply(request: RecordedRequest, answer: ReturnType<typeof answerOf>): unknown;
  /** What the server billed for the answers since `from` (its count of answers then), as FakeUsage. */
  billedSince?(from: number): FakeUsage[];
  answers?(): number;
}

async function chatApi(): Promise<ModelApi> {
  const server = await startFakeModelServer();
  return { name: 'chat', params: { api: 'chat' }, server: server as ModelApi['server'], reply: (_request, answer) => answer.reply };
}

async function responsesApi(): Promise<ModelApi> {
  const server = await startFakeResponsesServer();
  return {
    name: 'responses, state: provider',
    params: { api: 'responses', state: 'provider' },
    server: server as unknown as ModelApi['server'],
    reply: (_request, answer) => ({ toolCalls: (answer.reply as { toolCalls: FakeToolCall[] }).toolCalls, reasoning: 'think' }),
    answers: () => server.usages.length,
    billedSince: (from) =>
      server.usages.slice(from).map(({ usage }) => ({
        prompt_tokens: usage.input_tokens,
        cached_tokens: usage.input_tokens_details.cached_tokens,
        completion_tokens: usage.output_tokens,
        reasoning_tokens: usage.output_tokens_details.reasoning_tokens,
      })),
  };
}

/** The fake model server's answers for one scenario: what it answered (and billed), and at most one call left hanging. */
class ModelScenario {
  readonly answered: Array<{ body: string; usage: FakeUsage }> = [];
  #hangAt: number | undefined;
  readonly #from: number;

  constructor(
    readonly api: ModelApi,
    hangAt?: number,
  ) {
    this.#hangAt = hangAt;
    this.#from = api.answers?.() ?? 0;
    api.server.setFallback((request) => {
      if (this.answered.length === this.#hangAt) {
        this.#hangAt = undefined;
        return { hang: true };
      }
      const answer = answerOf(request);
      this.answered.push({ body: requestText(request), usage: answer.usage });
      return api.reply(request, answer);
    });
  }

  /** What the server billed for this scenario's answers. */
  billed(): FakeUsage[] {
    return this.api.billedSince?.(this.#from) ?? this.answered.map((a) => a.usage);
  }
}

describe.each([
  ['chat', chatApi],
  ['responses, state: provider', responsesApi],
] as const)('resume continues an llm episode (%s) from its checkpoint', (_name, startApi) => {
  let dir: string;
  let serve: ArcbenchProcess | undefined;
  let serverUrl: string;
  let api: ModelApi;
  let model: ModelApi['server'];
  let reference: { log: LoggedCommand[]; record: EpisodeRecord; recording: RecordingEntry[]; calls: string[] };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-continue-llm-'));
    api = await startApi();
    model = api.server;
    serve = startArcbench(['serve', '--port', '0', '--backends', '3', '--log-level', 'silent'], dir);
    await waitUntil(() => /^(http:\S+)$/m.test(serve!.output().stdout), 'arcbench serve to listen');
    serverUrl = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
    const proxy = await startActionLogProxy(serverUrl);
    const scenario = new ModelScenario(api);
    try {
      writeFileSync(join(dir, 'reference.yaml'), experimentYaml(`{ url: "${proxy.url}", api_key: ${KEY} }`, model.baseUrl, api.params));
      const result = await runExperiment(await loadExperiment(join(dir, 'reference.yaml')), { out: join(dir, 'reference') });
      const record = result.episodes[0]!;
      expect(record.actions).toBe(ACTIONS);
      // Batches: fewer calls than actions, so some kills fall between the actions of one batch.
      expect(scenario.answered.length).toBeLessThan(ACTIONS);
      reference = { log: [...proxy.log], record, recording: await recordingOf(result.runDir, record), calls: scenario.answered.map((a) => a.body) };
    } finally {
      await proxy.close();
    }
  }, 90_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function killAndResume(name: string, options: { hangAt?: number; hold?: HoldPlan }) {
    const out = join(dir, name);
    const proxy = await startActionLogProxy(serverUrl, options.hold);
    const scenario = new ModelScenario(api, options.hangAt);
    writeFileSync(join(dir, `${name}.yaml`), experimentYaml(`{ url: "${proxy.url}", api_key: ${KEY} }`, model.baseUrl, api.params));
    try {
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      if (options.hold !== undefined) await proxy.held;
      else await waitUntil(() => model.hanging() > 0 && existsSync(join(out, 'checkpoints')), 'the model call to hang', 60_000);
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      expect(readdirSync(join(out, 'checkpoints')).filter((file) => file.endsWith('.json'))).toHaveLength(1);
      const killedLog = [...proxy.log];
      const resumed = await runArcbench(['resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const folder = readRunFolder(out);
      expect(folder.report.status).toBe('completed');
      const [record] = currentEpisodes(folder.records);
      return { out, folder, record: record!, log: [...proxy.log], killedLog, scenario };
    } finally {
      await proxy.close();
    }
  }

  async function expectContinued(result: Awaited<ReturnType<typeof killAndResume>>, fromStep: number): Promise<void> {
    const { record, log, out, scenario } = result;
    const firstGuid = log[0]!.guid;
    expect(record.guid).toBe(firstGuid);
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: ACTIONS, continued: { from_attempt: 1, from_step: fromStep } });
    expect(record.restarted).toBeUndefined();
    // The service: one session, the uninterrupted episode's commands, each once.
    expect(new Set(log.map((c) => c.guid))).toEqual(new Set([firstGuid]));
    if (process.env.DUMP)
      writeFileSync(
        '/tmp/llmdump.json',
        JSON.stringify({ got: scenario.answered.map((a) => JSON.parse(a.body)), want: reference.calls.map((b) => JSON.parse(b)) }),
      );
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    // The model server: the uninterrupted episode's calls, each answered once, across the kill.
    expect(scenario.answered.map((a) => a.body)).toEqual(reference.calls);
    // Usage and dollars: exactly what the model server billed.
    const billed = scenario.billed();
    expect(billed).toHaveLength(reference.calls.length);
    expect(record.usage).toMatchObject({
      calls: billed.length,
      input_tokens: billed.reduce((s, u) => s + u.prompt_tokens, 0),
      cached_input_tokens: billed.reduce((s, u) => s + (u.cached_tokens ?? 0), 0),
      output_tokens: billed.reduce((s, u) => s + u.completion_tokens, 0),
    });
    expect(record.usage!.cost_usd).toBeCloseTo(dollarsOf(billed), 12);
    // The chat fake bills a request by its text alone, so the uninterrupted run's bill is this one's too;
    // the Responses fake's prefix cache remembers every run it served, so only its own bill compares.
    if (api.billedSince === undefined) expect(record.usage).toEqual(reference.record.usage);
    // The recording replays whole: the uninterrupted episode's frames, line for line.
    const recording = await recordingOf(out, record);
    expect(recording).toHaveLength(ACTIONS + 1);
    expect(played(recording)).toEqual(played(reference.recording));
  }

  it.each([2, 4])(
    'killed while model call %i is in flight: continues the same session, asks that call again and no other',
    async (call) => {
      const result = await killAndResume(`hang-${call}`, { hangAt: call });
      // The kill came while the call was hanging: the steps before it were recorded.
      const fromStep = result.killedLog.length - 1;
      expect(fromStep).toBeGreaterThan(0);
      await expectContinued(result, fromStep);
    },
    150_000,
  );

  it.each([3, 7])(
    'killed with an action of a batch (not its first) from step %i on held before the service saw it: sends it once, the batch goes on',
    async (after) => {
      // The held action is decided without a call. Command 0 is the RESET: command step + 1 is step's action.
      const called = reference.record.model_calls!.map((c) => c.step);
      let step = after;
      while (called.includes(step)) step++;
      const index = step + 1;
      const result = await killAndResume(`held-${index}`, { hold: (_command, _guid, i) => (i === index ? 'request' : undefined) });
      expect(result.killedLog).toHaveLength(index);
      await expectContinued(result, index - 1);
    },
    150_000,
  );
});
