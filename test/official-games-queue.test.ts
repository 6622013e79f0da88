/**
 * The official games on the worker pool: a run with `games_dir` on `target: reference`, queued on a real
 * redis-server and played by an `arcbench worker`, whose own reference service loads the folder's games
 * on its own game hosts. Every episode is played, with the scores a single-machine run of the same seed has.
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
import { pythonHasRealEngineDependencies, REAL_ARCENGINE } from './support/officialCode.ts';
import { type RedisServer, startRedisServer } from './support/redisServer.ts';
import { TOOLKIT_GAMES_DIR } from './support/toolkitPlays.ts';

const enabled = pythonHasRealEngineDependencies();
const dir = mkdtempSync(join(tmpdir(), 'arcbench-official-queue-'));
const savedPythonPath = process.env.PYTHONPATH;
let redis: RedisServer;
let worker: ArcbenchProcess;

beforeAll(async () => {
  if (!enabled) return;
  process.env.PYTHONPATH = REAL_ARCENGINE;
  redis = await startRedisServer();
  worker = startArcbench(['worker', '--queue', redis.url, '--concurrency', '2', '--recordings-dir', dir], dir);
  await waitUntil(() => worker.output().stderr.includes('worker waiting for runs'), 'a worker to wait for runs');
}, 60_000);

afterAll(async () => {
  if (savedPythonPath === undefined) delete process.env.PYTHONPATH;
  else process.env.PYTHONPATH = savedPythonPath;
  if (worker !== undefined && worker.child.exitCode === null) worker.child.kill('SIGTERM');
  await worker?.exited;
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!enabled)('official games played by a worker (python3 lacks numpy or pydantic otherwise)', () => {
  it('plays every episode of a games_dir run, with the scores of a single-machine run', async () => {
    const file = join(dir, 'official.yaml');
    const lines = ['name: official', 'target: reference', `games_dir: ${JSON.stringify(TOOLKIT_GAMES_DIR)}`, 'games: all'];
    writeFileSync(file, [...lines, 'agents: [{ use: random }]', 'episodes: 2', 'seed: 3', 'budgets: { max_actions: 20 }', 'game_hosts: 1', ''].join('\n'));
    const queued = await runArcbench(['run', file, '--queue', redis.url, '--out', join(dir, 'pool')], dir);
    expect(queued.code, queued.stderr).toBe(0);
    const local = await runExperiment(await loadExperiment(file), { out: join(dir, 'local') });
    const played = readRunFolder(join(dir, 'pool')).records;
    expect(played).toHaveLength(4);
    expect(played.filter((record) => record.error !== undefined)).toEqual([]);
    const scores = (records: typeof played) => new Map(records.map((record) => [keyOfRecord(record), [record.levels_completed, record.actions]]));
    expect(scores(played)).toEqual(scores(local.episodes));
    expect(worker.output().stderr).not.toMatch(/unknown game|no game/i);
  }, 120_000);
});
