/**
 * The llm agent's cost on each provider API: an 80-action episode of Crate Yard through the real
 * runner, against our fake servers in a process of their own (they count tokens as 4 characters each
 * and model each provider's prompt cache as documented), the model answering with a fixed walk in 50 ms. Per configuration:
 * input tokens, the cached share, output tokens, calls and dollars at the price lists below, and the
 * agent's own time per call: the time the episode's thread spends building the request, the SDK's
 * sending it and reading the reply, and our checks of it, the wait for the server excluded. That time is
 * what a call adds to a step beside the model's reply, so it is the time the event loop is busy (not
 * waiting on I/O), taken as the difference between the fastest of four 80-action episodes and the
 * fastest of four 8-action ones (what a run pays once, such as loading the plugin and writing the
 * results, cancels out) less the runner's and the service's own time for as many actions, taken the
 * same way from the same walk played without a model at the same rhythm (bench/agents/pacedWalk.ts):
 * work woken after a 50 ms wait runs several times slower than in a busy loop, and that slowness is the
 * runner's, not the agent's. The CPU V8's background threads
 * spend meanwhile (concurrent garbage collection, optimising compilation) is stated beside it: it does
 * not delay the episode, but it is CPU the run uses. One-time costs are stated apart: loading each SDK
 * (once a process) and making its client (once an episode); so is the runner's keeping of the calls'
 * transcripts, which is not the agent's work.
 *
 * Prices, dollars per million tokens: OpenAI-style (chat, responses): input 1.25, cached input
 * 0.125, output 10. Anthropic-style: input 3, cache read 0.30, cache write 3.75, output 15.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { startFakeProcess, WALK } from './llmFakeProcess.ts';
import { cpuMicroseconds, median, timeCalls } from './measure.ts';
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
 * Runs one 80-action episode of Crate Yard with this agent entry; the run's usage and the process's CPU
 * time. Transcripts are off unless asked for: writing them is the runner's work, measured apart.
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
  const cpuStarted = cpuMicroseconds();
  const loopStarted = performance.eventLoopUtilization();
  const result = await runExperiment(experiment, { out: join(dir, 'run') });
  const threadMs = performance.eventLoopUtilization(loopStarted).active;
  const played = result.report.agents.reduce((sum, agent) => sum + (agent.scorecard?.total_actions ?? 0), 0) || actions;
  return { report: result.report, played, threadMs, cpuMs: (cpuMicroseconds() - cpuStarted) / 1000 };
}

/** Milliseconds per action of the runner and the service alone (the paced walk), on the thread and in CPU. */
interface RunnerCost {
  readonly threadMs: number;
  readonly cpuMs: number;
}

type Episode = Awaited<ReturnType<typeof episode>>;

/** The fastest of each length, on the thread and in CPU, with the calls and actions such an episode makes. */
function fastest(episodes: readonly Episode[]) {
  return {
    threadMs: Math.min(...episodes.map((run) => run.threadMs)),
    cpuMs: Math.min(...episodes.map((run) => run.cpuMs)),
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
async function runnerCostPerAction(batch: number): Promise<RunnerCost> {
  const walk = WALK.map((name) => Number(name.slice('ACTION'.length)));
  const { short, long } = await shortAndLong({ use: PACED_WALK, params: { walk, wait_ms: REPLY_MS, every: batch } });
  const actions = long.played - short.played;
  return { threadMs: (long.threadMs - short.threadMs) / actions, cpuMs: (long.cpuMs - short.cpuMs) / actions };
}

/**
 * One configuration's usage over an 80-action episode, and the agent's own time per call: the fastest
 * such episode less the fastest 8-action one, less the runner's cost of the actions between them, over
 * the calls between them. The fake answers from a process of its own, so its work is not counted; the
 * SDK's is.
 */
async function measure(configuration: Configuration, runner: RunnerCost, actions = ACTIONS, transcripts = false) {
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
    return {
      usage,
      threadMsPerCall: (long.threadMs - short.threadMs - runner.threadMs * played) / calls,
      cpuMsPerCall: (long.cpuMs - short.cpuMs - runner.cpuMs * played) / calls,
    };
  } finally {
    await server.stop();
  }
}

/** CPU milliseconds of loading a module in a fresh plain Node process: paid once a process, not a call. */
function moduleLoadMs(name: string): number {
  const code = `const t = process.cpuUsage(); await import(${JSON.stringify(name)}); const u = process.cpuUsage(t); console.log((u.user + u.system) / 1000);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
}

/** The costs paid once, not per call: each SDK's loading (once a process) and its client's making (once an episode). */
function oneTimeFigures(): BenchFigure[] {
  const options = { apiKey: 'bench-key', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, logLevel: 'off' as const };
  const openai = timeCalls(() => new OpenAI(options), { callsPerRound: 200 });
  const anthropic = timeCalls(() => new Anthropic(options), { callsPerRound: 200 });
  return [
    { figure: 'once a process: loading the openai SDK (plain node)', value: moduleLoadMs('openai'), unit: 'ms' },
    { figure: 'once a process: loading the @anthropic-ai/sdk SDK (plain node)', value: moduleLoadMs('@anthropic-ai/sdk'), unit: 'ms' },
    { figure: "once an episode: making the openai SDK's client", value: openai.fastest / 1000, unit: 'ms' },
    { figure: "once an episode: making the Anthropic SDK's client", value: anthropic.fastest / 1000, unit: 'ms' },
  ];
}

/** The agent's own time per call, that time as a share of the fake's reply (the least a round trip takes), and its CPU with V8's background threads. */
function agentTimeFigures(label: string, cost: { threadMsPerCall: number; cpuMsPerCall: number }): BenchFigure[] {
  return [
    {
      figure: `${label}: agent's own time per call (on the episode's thread: request, SDK, reply read; not the wait)`,
      value: cost.threadMsPerCall,
      unit: 'ms',
    },
    { figure: `${label}: agent's own time per call, share of a ${REPLY_MS} ms reply's round trip`, value: (100 * cost.threadMsPerCall) / REPLY_MS, unit: '%' },
    { figure: `${label}: CPU per call with V8's background threads (garbage collection, compilation)`, value: cost.cpuMsPerCall, unit: 'ms' },
  ];
}

const suite: BenchSuite = {
  name: 'llm',
  async run() {
    const figures: BenchFigure[] = oneTimeFigures();
    const calls = new Map<string, number>();
    let slowest = 0;
    // Short unmeasured episodes first: loading each SDK and compiling the hot code is not a call's cost.
    await episode({ use: 'random' }, 10);
    for (const configuration of CONFIGURATIONS.slice(0, 5)) await measure(configuration, { threadMs: 0, cpuMs: 0 }, 10);
    const runners = new Map<number, RunnerCost>();
    for (const batch of new Set(CONFIGURATIONS.map((configuration) => configuration.batch))) {
      const runner = await runnerCostPerAction(batch);
      runners.set(batch, runner);
      const paced = `the same walk with no model, a ${REPLY_MS} ms wait per ${batch === 1 ? 'action' : `${batch} actions`}`;
      figures.push(
        { figure: `${paced}: the runner's and the service's time per action, on the thread`, value: runner.threadMs, unit: 'ms' },
        { figure: `${paced}: the runner's and the service's CPU per action`, value: runner.cpuMs, unit: 'ms' },
      );
    }
    for (const configuration of CONFIGURATIONS) {
      const cost = await measure(configuration, runners.get(configuration.batch)!);
      const { usage } = cost;
      const label = configuration.label;
      calls.set(label, usage.calls);
      slowest = Math.max(slowest, cost.threadMsPerCall);
      const cachedShare = (100 * usage.cached_input_tokens) / Math.max(1, usage.input_tokens);
      const cacheTarget = label === 'responses, state provider' || label === 'anthropic' ? { target: { op: '>=' as const, value: 70 } } : {};
      figures.push(
        { figure: `${label}: input tokens`, value: usage.input_tokens, unit: 'tokens' },
        { figure: `${label}: cached share of input`, value: cachedShare, unit: '%', ...cacheTarget },
        { figure: `${label}: output tokens`, value: usage.output_tokens, unit: 'tokens' },
        { figure: `${label}: calls`, value: usage.calls, unit: 'calls' },
        { figure: `${label}: dollars`, value: usage.cost_usd ?? Number.NaN, unit: '$' },
        ...agentTimeFigures(label, cost),
      );
    }
    // The same chat episode with transcripts kept: the difference is the runner's, per call.
    const transcribed = await measure(CONFIGURATIONS[0]!, runners.get(1)!, ACTIONS, true);
    const chatMs = figures.find((figure) => figure.figure.startsWith("chat: agent's own time per call ("))!.value;
    figures.push({
      figure: "chat: the runner's keeping of the call's transcript, per call, on the thread",
      value: transcribed.threadMsPerCall - chatMs,
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
