/**
 * The model gateway across a crash (issue 31): `kill -9` of a real `arcbench run` while a Python agent
 * that asks a model at every decision (test/fixtures/python/gateway_checkpoint_agent.py, the stand-in
 * `openai` SDK) decides, against a real `arcbench serve`; then `arcbench resume` continues its episode
 * from its snapshot. The episode's calls, tokens and dollars, and its transcripts, are what the fake
 * upstream answered and billed over both attempts, and `arcbench verify` finds them agreeing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEpisodes, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { readTranscript } from '../src/runfolder/transcriptFile.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { type FakeModelServer, startFakeModelServer } from './support/fakeModelServer.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';

const ROOT = join(import.meta.dirname, '..');
const SDK_STAND_IN = join(ROOT, 'test', 'fixtures', 'python-sdk');
const KEY = 'gateway-resume-key';
const USAGE = { prompt_tokens: 40, completion_tokens: 6 };
const PRICES = { input: 2, output: 8 };
const ACTIONS = 12;

let dir: string;
let serve: ArcbenchProcess | undefined;
let serverUrl: string;
let fake: FakeModelServer;
const saved = { PYTHONPATH: process.env.PYTHONPATH, OPENAI_API_KEY: process.env.OPENAI_API_KEY };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-gwresume-'));
  copyPythonFixtures(dir);
  fake = await startFakeModelServer({ fallback: (_request, index) => ({ text: `answer ${index}`, usage: USAGE }) });
  // The agent's environment, as a user's shell would have it: the SDK importable, a key.
  Object.assign(process.env, { PYTHONPATH: SDK_STAND_IN, OPENAI_API_KEY: 'sk-agent-key' });
  serve = startArcbench(['serve', '--port', '0', '--backends', '2', '--log-level', 'silent'], dir);
  await waitUntil(() => /^(http:\S+)$/m.test(serve!.output().stdout), 'arcbench serve to listen');
  serverUrl = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
}, 60_000);

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function experimentYaml(name: string, marker: string, trap: string): string {
  const gateway = `{ upstream: "${fake.baseUrl}", pricing: { input: ${PRICES.input}, output: ${PRICES.output} } }`;
  const params = `{ marker: ${JSON.stringify(marker)}, trap_step: 5, trap: ${trap} }`;
  return [
    `name: ${name}`,
    `target: { url: "${serverUrl}", api_key: ${KEY} }`,
    'games: [flod]',
    'agents:',
    `  - { use: ./gateway_checkpoint_agent.py, label: gw, params: ${params}, model_gateway: ${gateway} }`,
    'episodes: 1',
    'seed: 5',
    `budgets: { max_actions: ${ACTIONS} }`,
    'concurrency: 1',
    'recordings: gzip',
    '',
  ].join('\n');
}

describe('a Python agent with a model gateway, killed mid-episode and resumed', () => {
  // `before`: killed while deciding, before the step's call; `after`: once the upstream has answered
  // (and billed) the step's call, before the agent's decision reached the runner: the resume makes that
  // call again, and both are counted.
  it.each(['before', 'after'])(
    'counts and keeps every call the upstream billed, over both attempts, killed while deciding (%s its call)',
    async (trap) => {
      const name = `killed-${trap}`;
      const out = join(dir, name);
      const marker = join(dir, `${name}.marker`);
      writeFileSync(join(dir, `${name}.yaml`), experimentYaml(name, marker, trap));
      fake.requests.length = 0;
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      await waitUntil(() => existsSync(marker) && existsSync(join(out, 'checkpoints')), 'the trap', 60_000);
      run.child.kill('SIGKILL');
      await run.exited;
      await waitUntil(() => processesMentioning(join(dir, 'gateway_checkpoint_agent.py')).length === 0, 'the agent to exit', 5000);
      const resumed = await runArcbench(['resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const [record] = currentEpisodes(readRunFolder(out).records);
      expect(record).toMatchObject({ outcome: 'budget', continued: { from_attempt: 1 } });
      const calls = fake.requests.length;
      const input = calls * USAGE.prompt_tokens;
      const output = calls * USAGE.completion_tokens;
      const dollars = (input * PRICES.input + output * PRICES.output) / 1e6;
      expect(record!.usage).toMatchObject({ calls, input_tokens: input, output_tokens: output });
      expect(record!.usage.cost_usd).toBeCloseTo(dollars, 12);
      expect(record!.model_calls).toHaveLength(calls);
      const transcript = await readTranscript(join(out, record!.transcript!));
      expect(transcript.map((call) => call.response)).toHaveLength(calls);
      expect(transcript.reduce((sum, call) => sum + (call.usage.cost_usd ?? 0), 0)).toBeCloseTo(dollars, 12);
      const verified = spawnSync(process.execPath, [join(ROOT, 'bin', 'arcbench.js'), 'verify', out], { cwd: dir, encoding: 'utf8' });
      expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    },
    120_000,
  );
});
