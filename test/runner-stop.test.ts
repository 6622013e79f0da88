/**
 * A run ends promptly and completely whatever hangs (issue 10, points 11 and 12): requests the network
 * never answers, a long 429 back-off, agents whose act(), create() or finish() never settle. Every time
 * the cards are closed, run.json is written, and the episodes end with an outcome that says why.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment, type RunReport } from '../src/runner/runExperiment.ts';
import { startServer } from '../src/reference/server/index.ts';
import { type Fault, startFaultProxy } from './support/faultProxy.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const KEY = 'stop-test-key';
const BIN = ARCBENCH_BIN;
const dir = mkdtempSync(join(tmpdir(), 'arcbench-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agent plugin whose `hang` call never settles (and does nothing that keeps Node busy). */
function hangingAgent(hang: 'act' | 'create' | 'finish'): string {
  const file = join(dir, `hang-${hang}.ts`);
  const create =
    hang === 'create' ? 'async () => never()' : `() => ({ act: ${hang === 'act' ? 'never' : '() => action(1)'}${hang === 'finish' ? ', finish: never' : ''} })`;
  writeFileSync(
    file,
    `import { defineAgent, action } from 'arcbench';
const never = () => new Promise<never>(() => {});
export default defineAgent({
  name: 'hang-${hang}',
  create: ${create},
});
`,
  );
  return file;
}

function writeConfig(name: string, lines: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\ngames: [crat]\nrecordings: false\n${lines}`);
  return file;
}

/** Cards the server holds for the key, as the server has them. */
function cardsOf(server: Awaited<ReturnType<typeof startServer>>) {
  return server.backends.flatMap((backend) => backend.scorecardIds(KEY).map((id) => backend.getScorecard(KEY, id)));
}

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('stopping a run', () => {
  for (const [name, fault] of [
    ['a request the network never answers', { kind: 'slow', delayMs: 120_000 }],
    ['a 429 that asks for a minute of back-off', { kind: 'status', status: 429, when: 'before', retryAfter: '59' }],
  ] as Array<[string, Fault]>) {
    it(`the first interrupt ends the run at once, with ${name} in flight, and closes the cards`, async () => {
      const server = await startServer({ backendCount: 3, rotateAffinity: 5, logger: false });
      const proxy = await startFaultProxy(server.url, (request) => (/\/api\/cmd\/ACTION/.test(request.path) ? fault : undefined));
      try {
        const file = writeConfig(
          `interrupt-${fault.kind}`,
          `target: { url: "${proxy.url}", api_key: ${KEY} }\nagents: [{ use: random }]\nepisodes: 3\nconcurrency: 3\nrate_limit: false\ntimeouts: { request_ms: 120000, max_retries: 5 }\n`,
        );
        const interrupt = new AbortController();
        const running = runExperiment(await loadExperiment(file), { out: join(dir, `interrupt-${fault.kind}`), signal: interrupt.signal });
        await until(() => proxy.requests.filter((r) => r.fault !== undefined).length >= 3, 'three actions in trouble');
        const stoppedAt = Date.now();
        interrupt.abort();
        const { report, episodes } = await running;
        // The hanging request alone would hold the run for minutes; the stop takes what the closes take.
        expect(Date.now() - stoppedAt).toBeLessThan(10_000);
        expect(report.status).toBe('interrupted');
        expect(episodes.map((e) => e.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
        for (const episode of episodes) expect(episode.stop_reason).toMatch(/interrupted while in flight/);
        const cards = cardsOf(server);
        expect(cards).toHaveLength(1);
        expect(cards[0]!.published_at).not.toBeNull();
        expect(report.agents[0]!.close_error).toBeNull();
      } finally {
        await proxy.close();
        await server.close();
      }
    }, 40_000);
  }

  it('ends an episode whose act() never settles at the episode deadline, as `time`, and goes on', async () => {
    const file = writeConfig(
      'hang-act',
      `agents: [{ use: ${hangingAgent('act')} }, { use: random }]\nepisodes: 2\nbudgets: { max_actions: 10, episode_seconds: 0.5 }\n`,
    );
    const { report, episodes } = await runExperiment(await loadExperiment(file), { out: join(dir, 'hang-act') });
    const hung = episodes.filter((e) => e.agent === 'hang-act');
    expect(hung).toHaveLength(2);
    for (const episode of hung) {
      expect(episode.outcome).toBe('time');
      expect(episode.stop_reason).toMatch(/agent "hang-act": act\(\) had not settled when the episode's time \(budgets.episode_seconds\) ran out/);
    }
    expect(episodes.filter((e) => e.agent === 'random').every((e) => e.outcome === 'budget')).toBe(true);
    expect(report.status).toBe('completed');
    for (const agent of report.agents) expect(agent.scorecard?.published_at).toBeTruthy();
  });

  it('ends an episode whose create() never settles, and one whose finish() never settles, at the deadline', async () => {
    const file = writeConfig(
      'hang-create-finish',
      `agents: [{ use: ${hangingAgent('create')} }, { use: ${hangingAgent('finish')} }]\nbudgets: { max_actions: 5, episode_seconds: 0.5 }\n`,
    );
    const { episodes } = await runExperiment(await loadExperiment(file), { out: join(dir, 'hang-create-finish') });
    expect(episodes.find((e) => e.agent === 'hang-create')).toMatchObject({
      outcome: 'time',
      stop_reason: expect.stringMatching(/create\(\) had not settled/),
    });
    const finished = episodes.find((e) => e.agent === 'hang-finish')!;
    expect(finished.outcome).toBe('budget');
    expect(finished.stop_details).toMatchObject({ finish_error: expect.stringMatching(/finish\(\) had not settled/) });
  });

  it('keeps `arcbench run` up while an agent hangs with nothing to wait for, and the first Ctrl-C writes the results', async () => {
    const out = join(dir, 'hang-cli');
    const file = writeConfig('hang-cli', `agents: [{ use: ${hangingAgent('act')} }]\nepisodes: 2\n`);
    const child = spawn(process.execPath, [BIN, 'run', file, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Both episodes wait on the agent, so the run has started once run.log says so.
      await until(() => existsSync(join(out, 'run.log')) && readFileSync(join(out, 'run.log'), 'utf8').includes('scorecard opened'), 'the run to start');
      // This wait is the thing under test, not a wait for an event: with act() pending and nothing else to
      // do, Node would exit (code 13) as soon as its loop drained; staying up is seen only over a stretch.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(child.exitCode, stderr).toBeNull(); // not exit 13: the run waits for its agents
      child.kill('SIGINT');
      expect(await exited, stderr).toBe(130);
      const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
      expect(report.status).toBe('interrupted');
      expect(report.agents[0]!.scorecard?.published_at).toBeTruthy();
      const episodes = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
      expect(episodes.map((e) => e.outcome)).toEqual(['cancelled', 'cancelled']);
      expect(episodes[0]!.stop_reason).toMatch(/act\(\) had not settled when the run was interrupted/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);
});
