/**
 * Checkpoints of a Python agent (docs/agent-protocol.md §7): `kill -9` of a real `arcbench run` while
 * the agent decides, against a real `arcbench serve` behind a proxy that logs the service's commands;
 * then `arcbench resume`. The agent (test/fixtures/python/checkpoint_agent.py) draws from `random` and
 * keeps a lock its __init__ made: its episode goes on on its own session, and the service sees the
 * uninterrupted episode's actions, each once. One that opened a socket while playing cannot be
 * snapshotted: its episode is played again from a new RESET, and its record says why.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEpisodes, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { startActionLogProxy } from './support/actionLogProxy.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';
import { commandMoves, playedLines, playUninterrupted, recordingOf, TRAPPED_ACTIONS, type UninterruptedEpisode } from './support/trappedEpisode.ts';

const KEY = 'python-checkpoint-key';
const TRAP_STEP = 6;

function experimentYaml(target: string, marker: string, socket = false): string {
  return [
    'name: python-checkpoint',
    `target: ${target}`,
    'games: [flod]',
    'agents:',
    `  - { use: ./checkpoint_agent.py, label: pyck, params: { marker: ${JSON.stringify(marker)}, trap_step: ${TRAP_STEP}, socket: ${socket} } }`,
    'episodes: 1',
    'seed: 5',
    `budgets: { max_actions: ${TRAPPED_ACTIONS} }`,
    'concurrency: 1',
    'recordings: gzip',
    '',
  ].join('\n');
}

describe('a Python agent killed mid-episode', () => {
  let dir: string;
  let serve: ArcbenchProcess | undefined;
  let serverUrl: string;
  let reference: UninterruptedEpisode;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-pyck-'));
    copyPythonFixtures(dir);
    serve = startArcbench(['serve', '--port', '0', '--backends', '3', '--log-level', 'silent'], dir);
    await waitUntil(() => /^(http:\S+)$/m.test(serve!.output().stdout), 'arcbench serve to listen');
    serverUrl = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
    reference = await playUninterrupted(serverUrl, dir, (url, marker) => experimentYaml(`{ url: "${url}", api_key: ${KEY} }`, marker));
  }, 60_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  async function killAndResume(name: string, socket: boolean) {
    const out = join(dir, name);
    const marker = join(dir, `${name}.marker`);
    const proxy = await startActionLogProxy(serverUrl);
    writeFileSync(join(dir, `${name}.yaml`), experimentYaml(`{ url: "${proxy.url}", api_key: ${KEY} }`, marker, socket));
    try {
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      await waitUntil(() => existsSync(marker) && existsSync(join(out, 'checkpoints')), 'the trap');
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      // The agent notices arcbench died (its watchdog) and goes, with its process group.
      await waitUntil(() => processesMentioning(join(dir, 'checkpoint_agent.py')).length === 0, 'the agent to exit', 5000);
      const killedLog = [...proxy.log];
      const resumed = await runArcbench(['resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const [record] = currentEpisodes(readRunFolder(out).records);
      return { out, record: record!, log: [...proxy.log], killedLog };
    } finally {
      await proxy.close();
    }
  }

  it('is continued on its own session from its snapshot, sending no action twice', async () => {
    const { out, record, log, killedLog } = await killAndResume('continued', false);
    // The opening RESET, then the agent's decisions up to the trap: today's loop sends its first one, a RESET, too.
    expect(killedLog).toHaveLength(TRAP_STEP + 1);
    expect(record.restarted).toBeUndefined();
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS, guid: log[0]!.guid, continued: { from_attempt: 1 } });
    expect(new Set(log.map((c) => c.guid))).toEqual(new Set([log[0]!.guid]));
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    expect(playedLines(await recordingOf(out, record))).toEqual(playedLines(reference.recording));
  }, 90_000);

  it('holding a socket it opened while playing: played again from a new RESET, the reason in its record', async () => {
    const { record, log } = await killAndResume('socket', true);
    expect(record.continued).toBeUndefined();
    expect(record.restarted?.reason).toMatch(
      /agent "pyck": its state after step \d+ could not be snapshotted: Checkpointed\.sock \(socket\) cannot be pickled/,
    );
    expect(record.guid).not.toBe(log[0]!.guid);
    expect(commandMoves(log.filter((c) => c.guid === record.guid))).toEqual(commandMoves(reference.log));
  }, 90_000);
});
