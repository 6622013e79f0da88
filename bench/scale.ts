/**
 * The worker pool's scaling: an agent that waits 20 ms per action (as one waiting on a model would)
 * plays through Redis with 1, 2 and 4 `arcbench worker` processes. Each worker count plays 40
 * episodes per worker (about 8 s of play at any count); throughput is counted actions per second
 * while all the workers play (steadyRate says why). Efficiency with n workers is rate(n) / (n × rate(1)); the goal is ≥ 0.9 at 4.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExperiment, runExperiment } from '../src/index.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { queueScheduler } from '../src/scale/queue/queueScheduler.ts';
import { parseRedisAddress } from '../src/scale/queue/redisAddress.ts';
import { startRedisServer } from '../test/support/redisServer.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { scratchFolder } from './scratch.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WAIT_MS = 20;
const WORKER_CONCURRENCY = 4;
const EPISODES_PER_WORKER = 40;
const MAX_ACTIONS = 40;
const WORKER_COUNTS = [1, 2, 4];

function experimentYaml(workers: number): string {
  return [
    'name: bench-scale',
    'target: reference',
    'games: [lamp, crat]',
    'agents:',
    `  - use: ${join(ROOT, 'bench', 'agents', 'waitingAgent.ts')}`,
    `    params: { wait_ms: ${WAIT_MS} }`,
    `episodes: ${(EPISODES_PER_WORKER * workers) / 2}`,
    'seed: 7',
    'budgets:',
    `  max_actions: ${MAX_ACTIONS}`,
    'recordings: false',
    '',
  ].join('\n');
}

/** A worker process, resolved once it is waiting for runs. */
async function startWorker(queueUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/arcbench.js', 'worker', '--queue', queueUrl, '--concurrency', String(WORKER_CONCURRENCY), '--once'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker waiting for runs')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bench: a worker exited with ${code} before it was ready:\n${output}`)));
  });
  return child;
}

/**
 * Counted actions per second while every worker plays: from the moment the last worker started its
 * first episode to the moment the first worker finished its last. Workers join a run one after another
 * (each loads the experiment when it joins), and the last episodes end one after another; those ramps
 * are the same whatever the number of workers, and would otherwise be counted as lost scaling. Each
 * episode counts with the part of its actions that falls inside that stretch (its actions are evenly
 * paced by the agent's wait).
 */
function steadyRate(episodes: readonly EpisodeRecord[], workerOfCard: ReadonlyMap<string, string>): number {
  const span = (e: EpisodeRecord) => ({ start: Date.parse(e.started_at), end: Date.parse(e.started_at) + e.wall_seconds * 1000 });
  const perWorker = new Map<string, { first: number; last: number }>();
  for (const episode of episodes) {
    const worker = workerOfCard.get(episode.card_id) ?? '?';
    const { start, end } = span(episode);
    const seen = perWorker.get(worker) ?? { first: start, last: end };
    perWorker.set(worker, { first: Math.min(seen.first, start), last: Math.max(seen.last, end) });
  }
  const from = Math.max(...[...perWorker.values()].map((w) => w.first));
  const to = Math.min(...[...perWorker.values()].map((w) => w.last));
  let actions = 0;
  for (const episode of episodes) {
    const { start, end } = span(episode);
    const inside = Math.max(0, Math.min(end, to) - Math.max(start, from));
    if (end > start) actions += (episode.actions * inside) / (end - start);
  }
  return actions / ((to - from) / 1000);
}

async function measure(workers: number, queueUrl: string, dir: string): Promise<number> {
  const file = join(dir, `scale-${workers}.yaml`);
  writeFileSync(file, experimentYaml(workers));
  const experiment = await loadExperiment(file);
  const children = await Promise.all(Array.from({ length: workers }, () => startWorker(queueUrl)));
  try {
    const result = await runExperiment(experiment, { out: join(dir, `run-${workers}`), scheduler: queueScheduler(parseRedisAddress(queueUrl)) });
    if (result.report.status !== 'completed') throw new Error(`bench: the ${workers}-worker run ended ${result.report.status}`);
    await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    const workerOfCard = new Map(result.report.cards.map((card) => [card.card_id, card.worker ?? '?']));
    return steadyRate(result.episodes, workerOfCard);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}

const suite: BenchSuite = {
  name: 'scale',
  async run() {
    const redis = await startRedisServer();
    const dir = scratchFolder('scale');
    try {
      const rates = new Map<number, number>();
      for (const workers of WORKER_COUNTS) rates.set(workers, await measure(workers, redis.url, dir));
      const one = rates.get(1)!;
      const figures: BenchFigure[] = [];
      for (const [workers, rate] of rates) {
        figures.push({
          figure: `throughput, ${workers} worker${workers === 1 ? '' : 's'}`,
          value: rate,
          unit: 'actions/s',
          note: `${WAIT_MS} ms per action, ${WORKER_CONCURRENCY} episodes at once per worker, while all play`,
        });
      }
      for (const [workers, rate] of rates) {
        if (workers === 1) continue;
        figures.push({
          figure: `efficiency, ${workers} workers`,
          value: rate / (workers * one),
          unit: 'rate(n)/(n·rate(1))',
          ...(workers === 4 ? { target: { op: '>=' as const, value: 0.9 } } : {}),
        });
      }
      return figures;
    } finally {
      await redis.stop();
    }
  },
};

export default suite;
