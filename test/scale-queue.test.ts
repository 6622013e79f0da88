/**
 * The worker pool for real: a redis-server, three `arcbench worker` processes, and the coordinator
 * (`arcbench run … --queue` as a child process, or runExperiment with `queue` in the test's process). Every planned episode comes back exactly once, with
 * the scores a single-machine run of the same seed has; three workers share one request budget against
 * `arcbench serve --rate-limit` without a single 429 and use at least 90% of it; and a worker killed
 * with `kill -9` in the middle of an episode costs nothing: another worker plays that episode again
 * from a new RESET, and the dead worker's card keeps the lost session.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { keyOfRecord } from '../src/runfolder/episodeKey.ts';
import type { EpisodeRecord, LostAttempt } from '../src/runfolder/episodeRecord.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { queueScheduler } from '../src/scale/queue/queueScheduler.ts';
import { parseRedisAddress } from '../src/scale/queue/redisAddress.ts';
import { ACTIVE_RUNS, runKeys } from '../src/scale/queue/runKeys.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { type RedisServer, startRedisServer } from './support/redisServer.ts';

const WAITING_AGENT = join(import.meta.dirname, '..', 'bench', 'agents', 'waitingAgent.ts');
/** Short lock: a killed worker's job is handed on after about 1.5 s, not BullMQ's 30 s. */
const STALL_MS = 1500;

const dir = mkdtempSync(join(tmpdir(), 'arcbench-queue-'));
let redis: RedisServer;
let client: Redis;
const workers: ArcbenchProcess[] = [];

function writeConfig(name: string, lines: string[]): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, ...lines, ''].join('\n'));
  return file;
}

async function startWorker(): Promise<ArcbenchProcess> {
  const worker = startArcbench(['worker', '--queue', redis.url, '--concurrency', '2', '--stall-ms', String(STALL_MS), '--recordings-dir', dir], dir);
  await waitUntil(() => worker.output().stderr.includes('worker waiting for runs'), 'a worker to wait for runs');
  return worker;
}

const readReport = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
const byKey = (records: readonly EpisodeRecord[]) => new Map(records.map((r) => [keyOfRecord(r), r]));

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.url);
  workers.push(...(await Promise.all([startWorker(), startWorker(), startWorker()])));
});

afterAll(async () => {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  client?.disconnect();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a run played by three workers', () => {
  it('has every planned episode exactly once, with the scores of a single-machine run of the same seed', async () => {
    const file = writeConfig('pool', [
      'target: reference',
      'games: [lamp, crat]',
      'agents: [{ use: random }, { use: explorer }]',
      'episodes: 3',
      'seed: 5',
      'budgets: { max_actions: 15 }',
    ]);
    const queued = await runArcbench(['run', file, '--queue', redis.url, '--out', join(dir, 'pool')], dir);
    expect(queued.code, queued.stderr).toBe(0);
    const local = await runExperiment(await loadExperiment(file), { out: join(dir, 'pool-local') });

    const folder = readRunFolder(join(dir, 'pool'));
    const keys = folder.records.map(keyOfRecord);
    expect(keys).toHaveLength(2 * 2 * 3);
    expect(new Set(keys)).toEqual(new Set(local.episodes.map(keyOfRecord)));
    const mine = byKey(folder.records);
    for (const record of local.episodes) {
      const played = mine.get(keyOfRecord(record))!;
      expect([played.outcome, played.actions, played.levels_completed, played.score]).toEqual([
        record.outcome,
        record.actions,
        record.levels_completed,
        record.score,
      ]);
      expect(existsSync(join(dir, 'pool', played.recording!))).toBe(true);
    }
    const report = readReport(join(dir, 'pool'));
    expect(report.status).toBe('completed');
    expect(report.agents.map((a) => [a.label, a.local_score])).toEqual(local.report.agents.map((a) => [a.label, a.local_score]));
    // Every card is a worker's, closed, and its scorecard agrees with the episodes played on it.
    expect(report.cards.length).toBeGreaterThanOrEqual(2);
    for (const card of report.cards) {
      expect(card.worker).toMatch(/\.\d+\.[0-9a-f]{6}$/);
      expect(card.state).toBe('closed');
      expect(card.score_differences).toEqual([]);
    }
    expect(new Set(folder.records.map((r) => r.card_id))).toEqual(new Set(report.cards.map((c) => c.card_id)));
    expect(report.attempts[0]!.queue?.redis).toBe(redis.url);
  });
});

describe('one request budget for all workers', () => {
  it('keeps three workers under `serve --rate-limit` with no 429, using at least 90% of the rate', async () => {
    const perMinute = 1200;
    const serve = startArcbench(['serve', '--port', '0', '--rate-limit', String(perMinute), '--log-level', 'info'], dir);
    try {
      await waitUntil(() => /^(http:\S+)$/m.test(serve.output().stdout), 'serve to listen');
      const url = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
      const file = writeConfig('budget', [
        `target: { url: "${url}", api_key: budget-key }`,
        `rate_limit: { requests: ${perMinute}, interval_ms: 60000 }`,
        'games: [lamp, crat]',
        'agents: [{ use: random }]',
        'episodes: 5',
        'budgets: { max_actions: 10 }',
        'recordings: false',
      ]);
      const run = await runExperiment(await loadExperiment(file), { out: join(dir, 'budget'), scheduler: queueScheduler(parseRedisAddress(redis.url)) });
      expect(run.report.status).toBe('completed');
      const answers = serve
        .output()
        .stderr.split('\n')
        .filter((line) => line.includes('"request completed"'))
        .map((line) => JSON.parse(line) as { time: number; res: { statusCode: number } });
      expect(answers.filter((a) => a.res.statusCode === 429)).toEqual([]);
      // The rate while episodes play: from the first episode's start to the last one's end (workers
      // joining and cards closing around it are not limited by the budget).
      const records = readRunFolder(join(dir, 'budget')).records;
      const from = Math.min(...records.map((r) => Date.parse(r.started_at)));
      const to = Math.max(...records.map((r) => Date.parse(r.started_at) + r.wall_seconds * 1000));
      const seconds = (to - from) / 1000;
      const rate = answers.filter((a) => a.time >= from && a.time <= to).length / seconds;
      const allowed = perMinute / 60;
      expect(rate).toBeGreaterThanOrEqual(0.9 * allowed);
      // Fixed one-second windows: at most two windows' worth above the rate over the stretch (three unshared budgets would triple it).
      expect(rate).toBeLessThanOrEqual(allowed + (2 * allowed) / seconds);
      expect(readReport(join(dir, 'budget')).totals.retries_by_cause['429']).toBeUndefined();
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

describe('a worker killed with kill -9 in the middle of an episode', () => {
  it('loses nothing and counts nothing twice: the episode is played again from a new RESET, the lost session stays on the dead worker’s card', async () => {
    const file = writeConfig('killed', [
      'target: { server: { backends: 1 } }',
      'games: [lamp, crat]',
      `agents: [{ use: ${JSON.stringify(WAITING_AGENT)}, label: waiting, params: { wait_ms: 25 } }]`,
      'episodes: 4',
      'budgets: { max_actions: 24 }',
      'recordings: false',
    ]);
    const coordinator = runExperiment(await loadExperiment(file), { out: join(dir, 'killed'), scheduler: queueScheduler(parseRedisAddress(redis.url)) });
    // Wait for an episode a worker has been playing for a while (past its first actions), and kill that worker.
    let runId = '';
    let victim: LostAttempt | undefined;
    const deadline = Date.now() + 30_000;
    while (victim === undefined && Date.now() < deadline) {
      runId = runId || ((await client.zrange(ACTIVE_RUNS, 0, -1)).find((id) => id.startsWith('killed-')) ?? '');
      if (runId !== '') {
        const attempts = Object.values(await client.hgetall(runKeys(runId).attempts)).flatMap((text) => JSON.parse(text) as LostAttempt[]);
        victim = attempts.find((a) => Date.now() - Date.parse(a.started_at) > 300);
      }
      if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(victim, 'no worker was seen playing').toBeDefined();
    const pid = Number(victim!.worker.split('.').at(-2));
    const killed = workers.find((w) => w.child.pid === pid)!;
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');

    await coordinator;
    const folder = readRunFolder(join(dir, 'killed'));
    const keys = folder.records.map(keyOfRecord);
    expect(keys).toHaveLength(2 * 4);
    expect(new Set(keys).size).toBe(keys.length);
    expect(folder.records.filter((r) => r.outcome === 'error')).toEqual([]);
    const replayed = folder.records.filter((r) => r.lost_attempts !== undefined);
    expect(replayed.map((r) => r.lost_attempts!.map((a) => a.worker))).toContainEqual([victim!.worker]);
    const report = readReport(join(dir, 'killed'));
    expect(report.status).toBe('completed');
    expect(report.totals.replayed_after_worker_loss).toBe(replayed.length);
    // The dead worker's card was closed by the coordinator, and holds a run for each session lost with
    // the worker (it played two episodes at once) besides the runs of the episodes it finished.
    const card = report.cards.find((c) => c.card_id === victim!.card_id)!;
    expect(card.worker).toBe(victim!.worker);
    expect(card.state).toBe('closed');
    const lostOnCard = replayed.flatMap((r) => r.lost_attempts!).filter((a) => a.card_id === card.card_id).length;
    expect(lostOnCard).toBeGreaterThanOrEqual(1);
    const runsOnCard = folder.records.filter((r) => r.card_id === card.card_id).reduce((n, r) => n + r.runs.length, 0);
    const runsOfCard = (card.scorecard!.environments ?? []).reduce((n, e) => n + (e.runs ?? []).length, 0);
    expect(runsOfCard).toBe(runsOnCard + lostOnCard);
  });
});
