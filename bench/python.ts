/**
 * Python agents: a trivial agent (bench/agents/python/trivial_agent.py, official harness shape) played
 * through the agent protocol against the in-process target, beside the same class driven over HTTP
 * against our server in a process of its own by a minimal stdlib client that loops as the official
 * harness does (http_loop.py). Both are one Python process playing one episode at a time. The agent's
 * own time per step (measured in the HTTP loop) is taken from each side's time per step: what is left
 * is the harness's overhead per step.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameCatalog } from '../src/games/catalog.ts';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { scratchFolder } from './scratch.ts';
import { startServerProcess } from './serverProcess.ts';

const AGENTS = fileURLToPath(new URL('agents/python/', import.meta.url));
const MAX_ACTIONS = 1500;
const EPISODES_PER_GAME = 2;

async function protocolRate(): Promise<{ actions: number; seconds: number }> {
  const dir = scratchFolder('python');
  const yaml = [
    'name: bench-python',
    'target: reference',
    'games: all',
    `agents: [{ use: ${JSON.stringify(join(AGENTS, 'trivial_agent.py'))} }]`,
    `episodes: ${EPISODES_PER_GAME}`,
    `budgets: { max_actions: ${MAX_ACTIONS} }`,
    'concurrency: 1',
    'recordings: false',
    '',
  ].join('\n');
  const experiment = await parseExperiment(yaml, { file: join(dir, 'bench.yaml'), baseDir: dir });
  const started = process.hrtime.bigint();
  const result = await runExperiment(experiment, { out: join(dir, 'run') });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.report.totals.errors > 0) throw new Error(`bench python: ${JSON.stringify(result.episodes.find((e) => e.error)?.error)}`);
  return { actions: result.report.totals.actions, seconds };
}

async function httpRate(): Promise<{ actions: number; seconds: number; agent_us_per_step: number }> {
  const server = await startServerProcess();
  try {
    const games = gameCatalog().flatMap((game) => Array.from({ length: EPISODES_PER_GAME }, () => game.info.id));
    const output = execFileSync('python3', [join(AGENTS, 'http_loop.py'), server.url, String(MAX_ACTIONS), ...games], { encoding: 'utf8' });
    return JSON.parse(output) as { actions: number; seconds: number; agent_us_per_step: number };
  } finally {
    await server.stop();
  }
}

const suite: BenchSuite = {
  name: 'python',
  async run(): Promise<BenchFigure[]> {
    await protocolRate(); // warm-up: module loading, JIT, the page cache of python3
    const protocol = await protocolRate();
    const http = await httpRate();
    const protocolRatePerSecond = protocol.actions / protocol.seconds;
    const httpRatePerSecond = http.actions / http.seconds;
    const agentMicroseconds = http.agent_us_per_step;
    return [
      {
        figure: 'trivial Python agent through the agent protocol, in-process target (one process, one episode at a time)',
        value: protocolRatePerSecond,
        unit: 'actions/s',
      },
      {
        figure: 'the same agent class over HTTP against arcbench serve, stdlib client looping as the official harness',
        value: httpRatePerSecond,
        unit: 'actions/s',
      },
      { figure: 'protocol over the HTTP loop', value: protocolRatePerSecond / httpRatePerSecond, unit: '×', target: { op: '>=', value: 10 } },
      { figure: "the agent's own time per step (is_done + choose_action)", value: agentMicroseconds, unit: 'µs' },
      { figure: 'harness overhead per step, agent protocol (everything but the agent)', value: 1e6 / protocolRatePerSecond - agentMicroseconds, unit: 'µs' },
      { figure: 'harness overhead per step, HTTP loop (everything but the agent)', value: 1e6 / httpRatePerSecond - agentMicroseconds, unit: 'µs' },
    ];
  },
};

export default suite;
