/**
 * Loopback HTTP: the real runner against our real server on 127.0.0.1 (the `target: { server }`
 * experiment users run: server and runner in one process), 32 episodes in flight. Per-action latency is
 * what the client sees, from undici's diagnostics channels (request created → answer complete), so the
 * runner is measured unmodified.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { timedRun, type BenchRunSettings } from './benchExperiment.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { median, percentile } from './measure.ts';

const SETTINGS: BenchRunSettings = { target: 'server', episodesPerGame: 30, maxActions: 80, concurrency: 32, recordings: false };
const ROUNDS = 3;

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

const suite: BenchSuite = {
  name: 'http',
  async run(): Promise<BenchFigure[]> {
    await timedRun({ ...SETTINGS, episodesPerGame: 6 }); // warm-up: module loading and JIT
    const rates: number[] = [];
    const p50s: number[] = [];
    const p99s: number[] = [];
    let actions = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { value: run, latencies } = await withActionLatencies(() => timedRun(SETTINGS));
      actions = run.actions;
      rates.push(run.actionsPerSecond);
      p50s.push(percentile(latencies, 50));
      p99s.push(percentile(latencies, 99));
    }
    const note = `median of ${ROUNDS} runs of ${actions.toLocaleString('en-US')} actions, ${SETTINGS.concurrency} episodes in flight, recordings off`;
    return [
      { figure: 'loopback HTTP, runner + server in one process, random agent', value: median(rates), unit: 'actions/s', target: { op: '>=', value: 4_000 }, note },
      { figure: 'loopback HTTP, latency per action p50', value: median(p50s), unit: 'ms', note: 'request created to answer complete, as the client sees it' },
      { figure: 'loopback HTTP, latency per action p99', value: median(p99s), unit: 'ms' },
    ];
  },
};
export default suite;
