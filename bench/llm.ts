/**
 * The llm agent's cost on each provider API: an 80-action episode of Crate Yard through the real
 * runner, against our fake servers in a process of their own (they count tokens as 4 characters each
 * and model each provider's prompt cache as documented), the model answering with a fixed walk in 50 ms. Per configuration:
 * input tokens, the cached share, output tokens, calls and dollars at the price lists below, and the
 * agent's own time per call: the CPU time the episode's thread spends building the request, the SDK's
 * sending it and reading the reply, and our checks of it, the wait for the server excluded. That time is
 * what a call adds to a step beside the model's reply. It is the main thread's time on a CPU (Linux's
 * schedstat), taken as the difference between the fastest of four 80-action episodes and the fastest of
 * four 8-action ones (what a run pays once, such as loading the plugin and writing the results, cancels
 * out) less the runner's and the service's own time for as many actions, taken the same way from the
 * same walk played without a model at the same rhythm (bench/agents/pacedWalk.ts): work woken after a
 * 50 ms wait runs several times slower than in a busy loop, and that slowness is the runner's, not the
 * agent's. The event loop's busy time is stated beside it: it also counts the time the thread was ready
 * but another process (the fake, on this 2-core machine) held the CPU, and it stands in for the thread's
 * CPU time where the kernel does not give it. So is the CPU V8's background threads spend meanwhile
 * (concurrent garbage collection, optimising compilation): it does not delay the episode, but it is CPU
 * the run uses. One-time costs are stated apart: loading each SDK (once a process) and making its client
 * (once an episode); so is the runner's keeping of the calls' transcripts, which is not the agent's work.
 *
 * Prices, dollars per million tokens: OpenAI-style (chat, responses): input 1.25, cached input
 * 0.125, output 10. Anthropic-style: input 3, cache read 0.30, cache write 3.75, output 15.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { modelTransport } from '../agents/llm/providers/transport.ts';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { startFakeProcess, WALK } from './llmFakeProcess.ts';
import { cpuMicroseconds, mainThreadCpuMs, median, timeCalls } from './measure.ts';
import { scratchFolder } from './scratch.ts';

const ACTIONS = 80;
/** The short episode whose difference from the long one leaves the per-call costs alone. */
const SHORT_ACTIONS = 8;
/**
 * Short and long episodes per configuration, interleaved; the fastest of each is taken. Load only ever
 * adds time (another process, a collection that falls in one episode), so the fastest is what the code
 * costs, as with the bench's micro figures (measure.ts).
 */
const ROUNDS = 4;
const REPLY_MS = 50;
const OPENAI_PRICES = { input: 1.25, cached_input: 0.125, output: 10 };
const ANTHROPIC_PRICES = { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 };

interface Configuration {
  readonly label: string;
  readonly server: 'chat' | 'responses' | 'anthropic';
  readonly params: Record<string, unknown>;
  readonly batch: number;
}

const CONFIGURATIONS: Configuration[] = [
  { label: 'chat', server: 'chat', params: { api: 'chat' }, batch: 1 },
  { label: 'responses, state provider', server: 'responses', params: { api: 'responses', state: 'provider' }, batch: 1 },
  { label: 'responses, state stateless', server: 'responses', params: { api: 'responses', state: 'stateless' }, batch: 1 },
  { label: 'responses, state harness', server: 'responses', params: { api: 'responses', state: 'harness' }, batch: 1 },
  { label: 'anthropic', server: 'anthropic', params: { api: 'anthropic', thinking_budget: 1_024 }, batch: 1 },
  { label: 'responses, state provider, batches of 5', server: 'responses', params: { api: 'responses', state: 'provider' }, batch: 5 },
  { label: 'anthropic, batches of 5', server: 'anthropic', params: { api: 'anthropic', thinking_budget: 1_024 }, batch: 5 },
];

/**
 * Milliseconds of an episode (or per action, or per call): the main thread's CPU time (NaN where the
 * kernel does not give it), the event loop's busy time, and the process's CPU time with V8's threads.
 */
interface Costs {
  readonly thread: number;
  readonly loop: number;
  readonly process: number;
}

function costsOf(cost: (kind: keyof Costs) => number): Costs {
  return { thread: cost('thread'), loop: cost('loop'), process: cost('process') };
}

/**
 * Runs one 80-action episode of Crate Yard with this agent entry; the run's usage and what it cost.
 * Transcripts are off unless asked for: writing them is the runner's work, measured apart.
 */
async function episode(agent: Record<string, unknown>, actions = ACTIONS, transcripts = false) {
  const dir = scratchFolder('llm');
  const yaml = JSON.stringify({
    name: 'bench-llm',
    target: 'reference',
    games: ['crat'],
    agents: [agent],
    episodes: 1,
    seed: 1,
    budgets: { max_actions: actions },
    recordings: false,
    transcripts,
  });
  const experiment = await parseExperiment(yaml, { file: join(dir, 'bench.yaml'), baseDir: dir });
  const processStarted = cpuMicroseconds();
  const threadStarted = mainThreadCpuMs() ?? Number.NaN;
  const loopStarted = performance.eventLoopUtilization();
  const result = await runExperiment(experiment, { out: join(dir, 'run') });
  const costs: Costs = {
    thread: (mainThreadCpuMs() ?? Number.NaN) - threadStarted,
    loop: performance.eventLoopUtilization(loopStarted).active,
    process: (cpuMicroseconds() - processStarted) / 1000,
  };
  const played = result.report.agents.reduce((sum, agent) => sum + (agent.scorecard?.total_actions ?? 0), 0) || actions;
  return { report: result.report, played, costs };
}

type Episode = Awaited<ReturnType<typeof episode>>;

/** The fastest of each kind of cost, with the calls and actions such an episode makes. */
function fastest(episodes: readonly Episode[]) {
  return {
    costs: costsOf((kind) => Math.min(...episodes.map((run) => run.costs[kind]))),
    played: median(episodes.map((run) => run.played)),
    calls: median(episodes.map((run) => run.report.totals.usage.calls)),
  };
}

async function shortAndLong(agent: Record<string, unknown>, actions = ACTIONS, transcripts = false) {
  const shorts: Episode[] = [];
  const longs: Episode[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    shorts.push(await episode(agent, SHORT_ACTIONS, transcripts));
    longs.push(await episode(agent, actions, transcripts));
  }
  return { short: fastest(shorts), long: fastest(longs), usage: longs[0]!.report.totals.usage };
}

const PACED_WALK = join(import.meta.dirname, 'agents', 'pacedWalk.ts');

/** The runner's and the service's cost per action when a wait of the fake's reply comes before every `batch`-th action. */
async function runnerCostPerAction(batch: number): Promise<Costs> {
  const walk = WALK.map((name) => Number(name.slice('ACTION'.length)));
  const { short, long } = await shortAndLong({ use: PACED_WALK, params: { walk, wait_ms: REPLY_MS, every: batch } });
  const actions = long.played - short.played;
  return costsOf((kind) => (long.costs[kind] - short.costs[kind]) / actions);
}

/**
 * One configuration's usage over an 80-action episode, and the agent's own time per call: the fastest
 * such episode less the fastest 8-action one, less the runner's cost of the actions between them, over
 * the calls between them. The fake answers from a process of its own, so its work is not counted; the
 * SDK's is.
 */
async function measure(configuration: Configuration, runner: Costs, actions = ACTIONS, transcripts = false) {
  const server = await startFakeProcess({ server: configuration.server, batch: configuration.batch, replyMs: REPLY_MS });
  try {
    const params = {
      model: 'bench-model',
      base_url: server.baseUrl,
      api_key: 'bench-key',
      pricing: configuration.server === 'anthropic' ? ANTHROPIC_PRICES : OPENAI_PRICES,
      max_actions_per_turn: configuration.batch,
      ...configuration.params,
    };
    await episode({ use: 'llm', params }, SHORT_ACTIONS, transcripts);
    const { short, long, usage } = await shortAndLong({ use: 'llm', params }, actions, transcripts);
    const calls = long.calls - short.calls;
    const played = long.played - short.played;
    return { usage, perCall: costsOf((kind) => (long.costs[kind] - short.costs[kind] - runner[kind] * played) / calls) };
  } finally {
    await server.stop();
  }
}

/** CPU milliseconds of loading a module in a fresh plain Node process: paid once a process, not a call. */
function moduleLoadMs(name: string): number {
  const code = `const t = process.cpuUsage(); await import(${JSON.stringify(name)}); const u = process.cpuUsage(t); console.log((u.user + u.system) / 1000);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
}

/**
 * The costs paid once, not per call: each SDK's loading (once a process) and its client's making with
 * the undici Agent it sends through (once an episode).
 */
function oneTimeFigures(): BenchFigure[] {
  const options = { apiKey: 'bench-key', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, logLevel: 'off' as const };
  const openai = timeCalls(() => new OpenAI({ ...options, ...modelTransport(120_000).options }), { callsPerRound: 200 });
  const anthropic = timeCalls(() => new Anthropic({ ...options, ...modelTransport(120_000).options }), { callsPerRound: 200 });
  return [
    { figure: 'once a process: loading the openai SDK (plain node)', value: moduleLoadMs('openai'), unit: 'ms' },
    { figure: 'once a process: loading the @anthropic-ai/sdk SDK (plain node)', value: moduleLoadMs('@anthropic-ai/sdk'), unit: 'ms' },
    { figure: "once an episode: making the openai SDK's client and its undici Agent", value: openai.fastest / 1000, unit: 'ms' },
    { figure: "once an episode: making the Anthropic SDK's client and its undici Agent", value: anthropic.fastest / 1000, unit: 'ms' },
  ];
}

/** The agent's own time per call: the thread's CPU time where the kernel gives it, else the event loop's busy time. */
function ownMs(perCall: Costs): number {
  return Number.isNaN(perCall.thread) ? perCall.loop : perCall.thread;
}

/** The agent's own time per call, that time as a share of the fake's reply (the least a round trip takes), and the other two measures of it. */
function agentTimeFigures(label: string, perCall: Costs): BenchFigure[] {
  const measured = Number.isNaN(perCall.thread) ? "the event loop's busy time" : "the episode's thread's CPU time";
  return [
    { figure: `${label}: agent's own time per call (${measured}: request, SDK, reply read; not the wait)`, value: ownMs(perCall), unit: 'ms' },
    { figure: `${label}: agent's own time per call, share of a ${REPLY_MS} ms reply's round trip`, value: (100 * ownMs(perCall)) / REPLY_MS, unit: '%' },
    { figure: `${label}: the event loop's busy time per call (with waits for a CPU another process held)`, value: perCall.loop, unit: 'ms' },
    { figure: `${label}: CPU per call with V8's background threads (garbage collection, compilation)`, value: perCall.process, unit: 'ms' },
  ];
}

/** What the runner and the service cost per action at each batch size's rhythm, with their figures. */
async function runnerCosts(figures: BenchFigure[]): Promise<Map<number, Costs>> {
  const runners = new Map<number, Costs>();
  for (const batch of new Set(CONFIGURATIONS.map((configuration) => configuration.batch))) {
    const runner = await runnerCostPerAction(batch);
    runners.set(batch, runner);
    const paced = `the same walk with no model, a ${REPLY_MS} ms wait per ${batch === 1 ? 'action' : `${batch} actions`}`;
    figures.push(
      { figure: `${paced}: the runner's and the service's time per action (as the agent's own time is taken)`, value: ownMs(runner), unit: 'ms' },
      { figure: `${paced}: the runner's and the service's CPU per action, with V8's background threads`, value: runner.process, unit: 'ms' },
    );
  }
  return runners;
}

const suite: BenchSuite = {
  name: 'llm',
  async run() {
    const figures: BenchFigure[] = oneTimeFigures();
    const calls = new Map<string, number>();
    let slowest = 0;
    // Short unmeasured episodes first: loading each SDK and compiling the hot code is not a call's cost.
    await episode({ use: 'random' }, 10);
    for (const configuration of CONFIGURATIONS.slice(0, 5))
      await measure(
        configuration,
        costsOf(() => 0),
        10,
      );
    const runners = await runnerCosts(figures);
    for (const configuration of CONFIGURATIONS) {
      const { usage, perCall } = await measure(configuration, runners.get(configuration.batch)!);
      const label = configuration.label;
      calls.set(label, usage.calls);
      slowest = Math.max(slowest, ownMs(perCall));
      const cachedShare = (100 * usage.cached_input_tokens) / Math.max(1, usage.input_tokens);
      const cacheTarget = label === 'responses, state provider' || label === 'anthropic' ? { target: { op: '>=' as const, value: 70 } } : {};
      figures.push(
        { figure: `${label}: input tokens`, value: usage.input_tokens, unit: 'tokens' },
        { figure: `${label}: cached share of input`, value: cachedShare, unit: '%', ...cacheTarget },
        { figure: `${label}: output tokens`, value: usage.output_tokens, unit: 'tokens' },
        { figure: `${label}: calls`, value: usage.calls, unit: 'calls' },
        { figure: `${label}: dollars`, value: usage.cost_usd ?? Number.NaN, unit: '$' },
        ...agentTimeFigures(label, perCall),
      );
    }
    // The same chat episode with transcripts kept: the difference is the runner's, per call.
    const transcribed = await measure(CONFIGURATIONS[0]!, runners.get(1)!, ACTIONS, true);
    const chatMs = figures.find((figure) => figure.figure.startsWith("chat: agent's own time per call ("))!.value;
    figures.push({
      figure: "chat: the runner's keeping of the call's transcript, per call (as the agent's own time is taken)",
      value: ownMs(transcribed.perCall) - chatMs,
      unit: 'ms',
    });
    for (const api of ['responses, state provider', 'anthropic']) {
      figures.push({
        figure: `${api}: calls with batches of 5 / batches of 1`,
        value: (calls.get(`${api}, batches of 5`) ?? Number.NaN) / (calls.get(api) ?? Number.NaN),
        unit: 'ratio',
        target: { op: '<=', value: 0.5 },
      });
    }
    figures.push({
      figure: `slowest agent's own time per call, as a share of a fast (${REPLY_MS} ms) reply`,
      value: (100 * slowest) / REPLY_MS,
      unit: '%',
      target: { op: '<=', value: 5 },
    });
    return figures;
  },
};

export default suite;
