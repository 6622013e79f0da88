/**
 * Python agents in the worker pool: a real redis-server, two `arcbench worker` processes and the
 * coordinator (`arcbench run … --queue`): every planned episode comes back once, with the results of a
 * single-machine run of the same seed, and no agent process is left behind.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { keyOfRecord } from '../src/runfolder/episodeKey.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';
import { type RedisServer, startRedisServer } from './support/redisServer.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-python-pool-'));
let redis: RedisServer;
const workers: ArcbenchProcess[] = [];

async function startWorker(): Promise<ArcbenchProcess> {
  const worker = startArcbench(['worker', '--queue', redis.url, '--concurrency', '2', '--recordings-dir', dir], dir);
  await waitUntil(() => worker.output().stderr.includes('worker waiting for runs'), 'a worker to wait for runs', 60_000);
  return worker;
}

beforeAll(async () => {
  copyPythonFixtures(dir);
  redis = await startRedisServer();
  workers.push(...(await Promise.all([startWorker(), startWorker()])));
}, 120_000);

afterAll(async () => {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Python agents in the worker pool', () => {
  it('are played by the workers as a single machine plays them', async () => {
    const file = join(dir, 'pool.yaml');
    writeFileSync(
      file,
      [
        'name: python-pool',
        'target: reference',
        'games: [lamp, crat]',
        'agents:',
        `  - { use: ${JSON.stringify(join(dir, 'random_agent.py'))}, label: random-py }`,
        `  - { use: ${JSON.stringify(join(dir, 'reasoning_agent.py'))}, label: thinker }`,
        'episodes: 2',
        'seed: 8',
        'budgets: { max_actions: 20 }',
        '',
      ].join('\n'),
    );
    const queued = await runArcbench(['run', file, '--queue', redis.url, '--out', join(dir, 'pool')], dir);
    expect(queued.code, queued.stderr).toBe(0);
    const local = await runExperiment(await loadExperiment(file), { out: join(dir, 'pool-local') });
    const results = (records: ReturnType<typeof readRunFolder>['records']) =>
      Object.fromEntries(records.map((r) => [keyOfRecord(r), [r.outcome, r.actions, r.levels_completed, r.usage.calls]]));
    const pooled = readRunFolder(join(dir, 'pool')).records;
    expect(pooled).toHaveLength(2 * 2 * 2);
    expect(results(pooled)).toEqual(results(local.episodes));
    expect(processesMentioning(dir).filter((line) => line.includes('arcbench_host'))).toEqual([]);
  }, 240_000);
});
