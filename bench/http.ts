/**
 * Loopback HTTP: the real runner against our real server on 127.0.0.1 (the `target: { server }`
 * experiment users run: server and runner in one process), 32 episodes in flight. Per-action latency is
 * what the client sees, from undici's diagnostics channels (request created → answer complete), so the
 * runner is measured unmodified.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { timedRun, type BenchRunSettings } from './benchExperiment.ts';
import { startServerProcess } from './serverProcess.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { median, percentile } from './measure.ts';

const SETTINGS: BenchRunSettings = { target: 'server', episodesPerGame: 20, maxActions: 80, concurrency: 32, recordings: false };
const ROUNDS = 5;

interface UndiciRequestMessage {
  request: { path: string };
}

/** Milliseconds per game command (RESET, ACTIONn), as long as `record` runs. */
async function withActionLatencies<T>(record: () => Promise<T>): Promise<{ value: T; latencies: number[] }> {
  const started = new WeakMap<object, bigint>();
  const latencies: number[] = [];
  const onCreate = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    if (request.path.includes('/api/cmd/')) started.set(request, process.hrtime.bigint());
  };
  const onDone = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    const at = started.get(request);
    if (at !== undefined) latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:trailers', onDone);
  try {
    return { value: await record(), latencies };
  } finally {
    unsubscribe('undici:request:create', onCreate);
    unsubscribe('undici:request:trailers', onDone);
  }
}

async function measure(settings: BenchRunSettings): Promise<{ rate: number; p50: number; p99: number; actions: number }> {
  await timedRun({ ...settings, episodesPerGame: 6 }); // warm-up: module loading and JIT
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  let actions = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { value: run, latencies } = await withActionLatencies(() => timedRun(settings));
    actions = run.actions;
    rates.push(run.actionsPerSecond);
    p50s.push(percentile(latencies, 50));
    p99s.push(percentile(latencies, 99));
  }
  return { rate: median(rates), p50: median(p50s), p99: median(p99s), actions };
}

const suite: BenchSuite = {
  name: 'http',
  async run(): Promise<BenchFigure[]> {
    const together = await measure(SETTINGS);
    // The same runner against `arcbench serve`-like server of its own process: each gets a core.
    const server = await startServerProcess();
    const apart = await measure({ ...SETTINGS, url: server.url }).finally(() => server.stop());
    const note = (what: string, m: { actions: number }) =>
      `${what}; median of ${ROUNDS} runs of ${m.actions.toLocaleString('en-US')} actions, ${SETTINGS.concurrency} episodes in flight, recordings off`;
    return [
      {
        figure: 'loopback HTTP, runner + server in one process (target: server)',
        value: together.rate,
        unit: 'actions/s',
        note: note('random agent', together),
      },
      {
        figure: 'loopback HTTP, same, latency per action p50 / p99',
        value: together.p50,
        unit: 'ms',
        note: `p99 ${together.p99.toFixed(1)} ms; request created to answer complete, as the client sees it`,
      },
      {
        figure: 'loopback HTTP, runner and server in two processes (target: url)',
        value: apart.rate,
        unit: 'actions/s',
        target: { op: '>=', value: 4_000 },
        note: note('random agent', apart),
      },
      { figure: 'loopback HTTP, two processes, latency per action p50', value: apart.p50, unit: 'ms' },
      { figure: 'loopback HTTP, two processes, latency per action p99', value: apart.p99, unit: 'ms' },
    ];
  },
};
export default suite;
