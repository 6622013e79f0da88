/**
 * The llm agent's cost on each provider API: an 80-action episode of Crate Yard through the real
 * runner, against our fake servers in a process of their own (they count tokens as 4 characters each
 * and model each provider's prompt cache as documented), the model answering with a fixed walk in 50 ms. Per configuration:
 * input tokens, the cached share, output tokens, calls and dollars at the price lists below, and the
 * agent's own CPU time per call.
 *
 * Prices, dollars per million tokens: OpenAI-style (chat, responses): input 1.25, cached input
 * 0.125, output 10. Anthropic-style: input 3, cache read 0.30, cache write 3.75, output 15.
 */
import { join } from 'node:path';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { startFakeProcess } from './llmFakeProcess.ts';
import { cpuMicroseconds } from './measure.ts';
import { scratchFolder } from './scratch.ts';

const ACTIONS = 80;
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

/** Runs one 80-action episode of Crate Yard with this agent entry; the run's usage and the process's CPU time. */
async function episode(agent: Record<string, unknown>, actions = ACTIONS) {
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
  });
  const experiment = await parseExperiment(yaml, { file: join(dir, 'bench.yaml'), baseDir: dir });
  const cpuStarted = cpuMicroseconds();
  const result = await runExperiment(experiment, { out: join(dir, 'run') });
  return { report: result.report, cpuMs: (cpuMicroseconds() - cpuStarted) / 1000 };
}

/**
 * The agent's own CPU time per call: the run's CPU time less that of the same run with the random
 * agent (the runner and the reference service), over the calls. The fake answers from a process of
 * its own, so its work is not counted; the SDK's is. CPU time, unlike wall time, holds on a machine
 * shared with other work.
 */
async function measure(configuration: Configuration, baselineCpuMsPerAction: number, actions = ACTIONS) {
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
    const { report, cpuMs } = await episode({ use: 'llm', params }, actions);
    const usage = report.totals.usage;
    const played = report.agents.reduce((sum, agent) => sum + (agent.scorecard?.total_actions ?? 0), 0) || actions;
    return { usage, agentCpuMsPerCall: (cpuMs - baselineCpuMsPerAction * played) / usage.calls };
  } finally {
    await server.stop();
  }
}

const suite: BenchSuite = {
  name: 'llm',
  async run() {
    const figures: BenchFigure[] = [];
    const calls = new Map<string, number>();
    let slowest = 0;
    // Short unmeasured episodes first: loading each SDK and compiling the hot code is not a call's cost.
    await episode({ use: 'random' }, 10);
    for (const configuration of CONFIGURATIONS.slice(0, 5)) await measure(configuration, 0, 10);
    const baseline = await episode({ use: 'random' });
    const baselineCpuMsPerAction = baseline.cpuMs / ACTIONS;
    figures.push({ figure: 'random agent, same episode: CPU time per action (runner and service)', value: baselineCpuMsPerAction, unit: 'ms' });
    for (const configuration of CONFIGURATIONS) {
      const { usage, agentCpuMsPerCall: agentMsPerCall } = await measure(configuration, baselineCpuMsPerAction);
      const label = configuration.label;
      calls.set(label, usage.calls);
      slowest = Math.max(slowest, agentMsPerCall);
      const cachedShare = (100 * usage.cached_input_tokens) / Math.max(1, usage.input_tokens);
      const cacheTarget = label === 'responses, state provider' || label === 'anthropic' ? { target: { op: '>=' as const, value: 70 } } : {};
      figures.push(
        { figure: `${label}: input tokens`, value: usage.input_tokens, unit: 'tokens' },
        { figure: `${label}: cached share of input`, value: cachedShare, unit: '%', ...cacheTarget },
        { figure: `${label}: output tokens`, value: usage.output_tokens, unit: 'tokens' },
        { figure: `${label}: calls`, value: usage.calls, unit: 'calls' },
        { figure: `${label}: dollars`, value: usage.cost_usd ?? Number.NaN, unit: '$' },
        { figure: `${label}: agent's own CPU time per call (the SDK's included)`, value: agentMsPerCall, unit: 'ms' },
      );
    }
    for (const api of ['responses, state provider', 'anthropic']) {
      figures.push({
        figure: `${api}: calls with batches of 5 / batches of 1`,
        value: (calls.get(`${api}, batches of 5`) ?? Number.NaN) / (calls.get(api) ?? Number.NaN),
        unit: 'ratio',
        target: { op: '<=', value: 0.5 },
      });
    }
    figures.push({
      figure: `slowest agent's own CPU time per call, as a share of a fast (${REPLY_MS} ms) reply`,
      value: (100 * slowest) / REPLY_MS,
      unit: '%',
      target: { op: '<=', value: 5 },
    });
    return figures;
  },
};

export default suite;
