/**
 * A worker of the pool killed with `kill -9` in the middle of an episode of an agent with snapshot()
 * and restore(): a real redis-server, two real `arcbench worker` processes keeping checkpoints in the
 * run folder (their --recordings-dir), a real `arcbench serve --backends 3` behind a proxy of ours that
 * keeps the service's action log. The other worker takes the stalled job and continues the same
 * session from the dead worker's checkpoint, on its card: the service saw every action of the
 * uninterrupted episode once and no other, usage adds up once, the recording is the uninterrupted
 * one's. Where it cannot continue (an answer the service gave but the dead worker never recorded; a
 * worker's own in-process service) the episode starts over from a new RESET and its record says why.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { LostAttempt } from '../src/runfolder/episodeRecord.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { queueScheduler } from '../src/scale/queue/queueScheduler.ts';
import { parseRedisAddress } from '../src/scale/queue/redisAddress.ts';
import { ACTIVE_RUNS, runKeys } from '../src/scale/queue/runKeys.ts';
import { type HoldPlan, startActionLogProxy } from './support/actionLogProxy.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { type RedisServer, startRedisServer } from './support/redisServer.ts';
import {
  commandMoves,
  playedLines,
  playUninterrupted,
  recordingOf,
  TRAP_STEP,
  TRAPPED_ACTIONS,
  trappedExperimentYaml,
  type UninterruptedEpisode,
} from './support/trappedEpisode.ts';

const KEY = 'pool-continue-key';
/** Short lock: a dead worker's job is handed on after about 1.5 s. */
const STALL_MS = 1500;

const dir = mkdtempSync(join(tmpdir(), 'arcbench-pool-continue-'));
let redis: RedisServer;
let client: Redis;
let serve: ArcbenchProcess;
let serverUrl: string;
let reference: UninterruptedEpisode;

const experimentYaml = (name: string, target: string, marker: string, decideMs = 0) => trappedExperimentYaml({ name, target, marker, decideMs });

function startWorker(): ArcbenchProcess {
  return startArcbench(['worker', '--queue', redis.url, '--concurrency', '1', '--stall-ms', String(STALL_MS), '--recordings-dir', dir, '--once'], dir);
}

/** The worker (of `workers`) that the run's only job was first given to, once it has played past its first steps. */
async function firstPlayer(name: string, workers: readonly ArcbenchProcess[]): Promise<ArcbenchProcess> {
  let attempt: LostAttempt | undefined;
  await waitUntilAsync(async () => {
    const runId = (await client.zrange(ACTIVE_RUNS, 0, -1)).find((id) => id.startsWith(`${name}-`));
    if (runId === undefined) return false;
    attempt = Object.values(await client.hgetall(runKeys(runId).attempts)).flatMap((text) => JSON.parse(text) as LostAttempt[])[0];
    return attempt !== undefined;
  }, 'a worker to start the episode');
  const pid = Number(attempt!.worker.split('.').at(-2));
  return workers.find((w) => w.child.pid === pid)!;
}

async function waitUntilAsync(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Queues the run, kills the worker playing it at the scenario's point, and lets the other worker finish it. */
async function killWorkerMidEpisode(name: string, options: { hold?: HoldPlan; inProcess?: boolean }) {
  const out = join(dir, name);
  const marker = join(dir, `${name}.marker`);
  if (options.hold !== undefined) writeFileSync(marker, ''); // held by the proxy, not trapped
  const proxy = await startActionLogProxy(serverUrl, options.hold);
  const workers = [startWorker(), startWorker()];
  try {
    const target = options.inProcess ? 'reference' : `{ url: "${proxy.url}", api_key: ${KEY} }`;
    // In-process, an episode says it is in flight once it has played a second: this one decides slowly.
    writeFileSync(join(dir, `${name}.yaml`), experimentYaml(name, target, marker, options.inProcess ? 200 : 0));
    const coordinator = runExperiment(await loadExperiment(join(dir, `${name}.yaml`)), { out, scheduler: queueScheduler(parseRedisAddress(redis.url)) });
    const victim = await firstPlayer(name, workers);
    if (options.hold !== undefined) await proxy.held;
    else await waitUntil(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 'the trap');
    const killedLog = [...proxy.log];
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    const run = await coordinator;
    expect(run.report.status).toBe('completed');
    const folder = readRunFolder(out);
    expect(folder.records).toHaveLength(1);
    expect(readdirSync(join(out, 'checkpoints'))).toEqual([]);
    return { out, folder, record: folder.records[0]!, log: [...proxy.log], killedLog, victim };
  } finally {
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await proxy.close();
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.url);
  serve = startArcbench(['serve', '--port', '0', '--backends', '3', '--log-level', 'silent'], dir);
  await waitUntil(() => /^(http:\S+)$/m.test(serve.output().stdout), 'arcbench serve to listen');
  serverUrl = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
  reference = await playUninterrupted(serverUrl, dir, (url, marker) => experimentYaml('reference', `{ url: "${url}", api_key: ${KEY} }`, marker));
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a stalled job of the worker pool', () => {
  it('continues on another worker from the dead worker’s checkpoint: the same session, no action twice, none missing', async () => {
    const { record, log, killedLog, out, folder, victim } = await killWorkerMidEpisode('decides', {});
    expect(killedLog).toHaveLength(TRAP_STEP + 1);
    const guid = log[0]!.guid;
    expect(record).toMatchObject({ guid, outcome: 'budget', actions: TRAPPED_ACTIONS, continued: { from_attempt: 1, from_step: TRAP_STEP } });
    expect(record.restarted).toBeUndefined();
    expect(record.lost_attempts).toBeUndefined();
    // The service's action log: one session, the uninterrupted episode's commands, each once.
    expect(new Set(log.map((c) => c.guid))).toEqual(new Set([guid]));
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    expect(record.usage).toEqual(reference.record.usage);
    expect(record.model_calls).toEqual(reference.record.model_calls);
    const recording = await recordingOf(out, record);
    expect(playedLines(recording)).toEqual(playedLines(reference.recording));
    // Played on the dead worker's card, which the coordinator closed at the end; no other card was opened.
    const [card, ...others] = folder.report.cards;
    expect(others).toEqual([]);
    expect(card).toMatchObject({ card_id: record.card_id, state: 'closed', worker: expect.stringContaining(`.${victim.child.pid}.`) });
    expect(card!.score_differences).toEqual([]);
  }, 90_000);

  it('with its action held before the service saw it: the next worker sends that action once, then goes on', async () => {
    // Command 0 is the RESET; command TRAP_STEP + 1 is the action decided at step TRAP_STEP.
    const { record, log, killedLog } = await killWorkerMidEpisode('held-request', {
      hold: (_c, _g, index) => (index === TRAP_STEP + 1 ? 'request' : undefined),
    });
    expect(killedLog).toHaveLength(TRAP_STEP + 1);
    expect(record).toMatchObject({ guid: log[0]!.guid, actions: TRAPPED_ACTIONS, continued: { from_attempt: 1, from_step: TRAP_STEP } });
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    expect(record.usage).toEqual(reference.record.usage);
  }, 90_000);

  it('after the service counted an action whose answer was lost: starts over from a new RESET, saying why', async () => {
    const { record, log, killedLog } = await killWorkerMidEpisode('held-answer', { hold: (_c, _g, index) => (index === TRAP_STEP + 1 ? 'answer' : undefined) });
    expect(killedLog).toHaveLength(TRAP_STEP + 2);
    expect(record.restarted?.reason).toMatch(/reached the service .* but its answer was lost/);
    expect(record.continued).toBeUndefined();
    expect(record.guid).not.toBe(log[0]!.guid);
    expect(record.lost_attempts).toHaveLength(1);
    expect(record).toMatchObject({ outcome: 'budget', actions: TRAPPED_ACTIONS });
    // Nothing more went to the first session after the kill; the new one is the uninterrupted episode.
    expect(log.filter((c) => c.guid === log[0]!.guid)).toHaveLength(TRAP_STEP + 2);
    expect(commandMoves(log.filter((c) => c.guid === record.guid))).toEqual(commandMoves(reference.log));
  }, 90_000);

  it('on a worker’s own in-process service: continuing is impossible, the episode starts over and its record says why', async () => {
    const { record } = await killWorkerMidEpisode('in-process', { inProcess: true });
    expect(record).toMatchObject({ outcome: 'budget', actions: TRAPPED_ACTIONS });
    expect(record.restarted?.reason).toMatch(/in-process service of the worker that played it, which died with that worker/);
    expect(record.continued).toBeUndefined();
    expect(record.lost_attempts).toHaveLength(1);
  }, 90_000);

  it('a resume through the pool (`resume --queue`) of a run killed mid-episode: a worker continues the same session on the card the resume took over', async () => {
    const name = 'resumed-queue';
    const out = join(dir, name);
    const marker = join(dir, `${name}.marker`);
    const proxy = await startActionLogProxy(serverUrl);
    const worker = startWorker();
    try {
      writeFileSync(join(dir, `${name}.yaml`), experimentYaml(name, `{ url: "${proxy.url}", api_key: ${KEY} }`, marker));
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      await waitUntil(() => existsSync(marker) && existsSync(join(out, 'checkpoints')), 'the trap');
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      const resumed = await runArcbench(['resume', out, '--queue', redis.url], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const folder = readRunFolder(out);
      const [record] = folder.records;
      const guid = proxy.log[0]!.guid;
      expect(record).toMatchObject({ attempt: 2, guid, outcome: 'budget', actions: TRAPPED_ACTIONS, continued: { from_attempt: 1, from_step: TRAP_STEP } });
      expect(record!.restarted).toBeUndefined();
      expect(new Set(proxy.log.map((c) => c.guid))).toEqual(new Set([guid]));
      expect(commandMoves(proxy.log)).toEqual(commandMoves(reference.log));
      expect(record!.usage).toEqual(reference.record.usage);
      expect(playedLines(await recordingOf(out, record!))).toEqual(playedLines(reference.recording));
      expect(readdirSync(join(out, 'checkpoints'))).toEqual([]);
      // The card taken over was closed by the resume's coordinator, and no other card was opened.
      expect(folder.report.cards.map((c) => [c.attempt, c.state, c.continued_by_attempt])).toEqual([[1, 'closed', 2]]);
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
      await proxy.close();
    }
  }, 90_000);

  it('a resume through the pool of an in-process run: the worker’s record says why the episode starts over', async () => {
    const name = 'resumed-in-process';
    const out = join(dir, name);
    const marker = join(dir, `${name}.marker`);
    const worker = startWorker();
    try {
      // In-process, an episode says it is in flight once it has played a second: this one decides slowly.
      writeFileSync(join(dir, `${name}.yaml`), experimentYaml(name, 'reference', marker, 200));
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      await waitUntil(() => existsSync(marker) && existsSync(join(out, 'checkpoints')), 'the trap');
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      const resumed = await runArcbench(['resume', out, '--queue', redis.url], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const [record] = readRunFolder(out).records;
      expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS });
      expect(record!.restarted?.reason).toMatch(/in-process service, which ended with its attempt's process/);
      expect(record!.continued).toBeUndefined();
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }
  }, 90_000);
});
