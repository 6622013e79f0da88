// `arcbench model-server`, the offline model provider users try the llm agent on and test their agent's
// plumbing against in CI: started as a user starts it (a child process on a free port), the built-in
// llm agent plays against it on each of its three APIs, and the episodes' tokens and dollars are
// exactly the figures the server was told to declare. configs/llm-offline.yaml runs against it as
// written; a replies file scripts the answers and their usage; the process ends with the test.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { startModelServer as startModelServerHere } from '../src/cli/modelServer/server.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

const ROOT = join(import.meta.dirname, '..');
const PRICING = { input: 1, cached_input: 0.1, output: 4 };
const DECLARED = { input: 1200, cached: 200, output: 80 };
/** Dollars of one call at the declared figures: fresh input, cached input, output. */
const CALL_USD = ((DECLARED.input - DECLARED.cached) * PRICING.input + DECLARED.cached * PRICING.cached_input + DECLARED.output * PRICING.output) / 1e6;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Started {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly exited: Promise<number | string>;
}

/** The command as a user runs it; resolves once it prints its origin. */
async function startModelServer(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [ARCBENCH_BIN, 'model-server', '--port', String(await freePort()), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const origin = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    void exited.then((code) => reject(new Error(`model-server exited ${code} before listening: ${stderr}`)));
  });
  return { child, origin, exited };
}

async function stop(server: Started): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

function experiment(dir: string, api: string, origin: string, name = api): string {
  const file = join(dir, `${name}.yaml`);
  const params = { api, model: 'offline-model', base_url: api === 'anthropic' ? origin : `${origin}/v1`, api_key: 'offline', pricing: PRICING };
  writeFileSync(file, stringify({ name, games: ['crat'], agents: [{ use: 'llm', params }], episodes: 2, budgets: { max_actions: 5 } }));
  return file;
}

describe('arcbench model-server', () => {
  let server: Started;
  beforeAll(async () => {
    const args = ['--input-tokens', String(DECLARED.input), '--cached-tokens', String(DECLARED.cached), '--output-tokens', String(DECLARED.output), '--quiet'];
    server = await startModelServer(args);
  });
  afterAll(async () => stop(server));

  it.each(['chat', 'responses', 'anthropic'])('the llm agent plays on api %s, its tokens and dollars the declared figures', async (api) => {
    const dir = tempDir(`model-server-${api}`);
    const run = await runExperiment(await loadExperiment(experiment(dir, api, server.origin)), { out: join(dir, 'run') });
    expect(run.episodes.map((episode) => [episode.outcome, episode.actions])).toEqual([
      ['budget', 5],
      ['budget', 5],
    ]);
    const usage = run.report.totals.usage;
    expect(usage.calls).toBe(10);
    expect(usage).toMatchObject({ input_tokens: 10 * DECLARED.input, cached_input_tokens: 10 * DECLARED.cached, output_tokens: 10 * DECLARED.output });
    expect(usage.cost_usd).toBeCloseTo(10 * CALL_USD, 9);
  });

  it('configs/llm-offline.yaml runs as written against it (ARCBENCH_MODEL_SERVER names the port)', () => {
    const dir = tempDir('model-server-config');
    const env = { ...process.env, ARCBENCH_MODEL_SERVER: server.origin };
    const result = spawnSync(process.execPath, [ARCBENCH_BIN, 'run', join(ROOT, 'configs', 'llm-offline.yaml'), '--out', join(dir, 'run')], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    for (const label of ['offline-chat', 'offline-responses', 'offline-anthropic']) expect(result.stdout).toContain(label);
  });

  it('answers a replies file in order, each reply with the usage it declares, and names a bad reply by its field', async () => {
    const dir = tempDir('model-server-replies');
    const replies = join(dir, 'replies.yaml');
    writeFileSync(replies, stringify([{ tool: 'ACTION2', usage: { input_tokens: 500, output_tokens: 5 } }, { tool: 'ACTION1' }]));
    const scripted = await startModelServer(['--replies', replies, '--input-tokens', '700', '--output-tokens', '7', '--quiet']);
    try {
      const run = await runExperiment(await loadExperiment(experiment(dir, 'chat', scripted.origin)), { out: join(dir, 'run') });
      const usage = run.report.totals.usage;
      // 10 calls: replies 1, 2, 1, 2, …
      expect(usage).toMatchObject({ calls: 10, input_tokens: 5 * 500 + 5 * 700, output_tokens: 5 * 5 + 5 * 7 });
    } finally {
      await stop(scripted);
    }
    writeFileSync(replies, stringify([{ tool: 'ACTION1', usage: { input_tokens: 'many', output_tokens: 5 } }]));
    const bad = spawnSync(process.execPath, [ARCBENCH_BIN, 'model-server', '--port', '0', '--replies', replies], { encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('[0].usage.input_tokens');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});

// The same server as a library in this process, as the command runs it: the scripted replies and the
// random walk of each API answer here too (and count in the coverage of src/, which a child does not).
describe('the model server in this process', () => {
  it.each(['chat', 'responses', 'anthropic'])('api %s: the random walk plays every step, each call with the declared usage', async (api) => {
    const lines: string[] = [];
    const walk = await startModelServerHere({
      host: '127.0.0.1',
      port: 0,
      seed: 3,
      usage: { input_tokens: DECLARED.input, cached_input_tokens: DECLARED.cached, output_tokens: DECLARED.output },
      log: (line) => lines.push(line),
    });
    try {
      const dir = tempDir(`model-server-here-${api}`);
      const run = await runExperiment(await loadExperiment(experiment(dir, api, walk.origin)), { out: join(dir, 'run') });
      expect(run.episodes.map((episode) => episode.outcome)).toEqual(['budget', 'budget']);
      expect(run.report.totals.usage).toMatchObject({ calls: 10, input_tokens: 10 * DECLARED.input, output_tokens: 10 * DECLARED.output });
      expect(lines.length).toBeGreaterThanOrEqual(10);
    } finally {
      await walk.close();
    }
  });
});
