/**
 * `arcbench run` when the run cannot start, as a user meets it (issue 10, point 16): a refused key, a
 * host out of reach, a results folder that cannot be made. One sentence and exit 2, never a stack
 * trace; and at the end of a run against a URL, each card's page.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/reference/server/index.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { firstOf } from './support/lists.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const BIN = ARCBENCH_BIN;
const dir = mkdtempSync(join(tmpdir(), 'arcbench-run-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function arcbenchRun(name: string, yaml: string, extra: string[] = []): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\ngames: [crat]\nagents: [{ use: random }]\nbudgets: { max_actions: 3 }\nrecordings: false\nrate_limit: false\n${yaml}`);
  // Killed (SIGKILL: a process spinning in a native call hears nothing else) if it hangs, so none outlives the test.
  const child = spawn(process.execPath, [BIN, 'run', file, '--out', join(dir, name), ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code: code ?? signal, stdout, stderr };
}

function expectOneSentence(stderr: string, pattern: RegExp) {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('{')); // CI log lines are JSON
  expect(lines.join('\n')).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('arcbench run that cannot start', () => {
  it('says the key was refused, in one sentence, and exits 2', async () => {
    const server = await startServer({ keys: new Map([['the-right-key', { user_name: 'a', user_id: 'a' }]]), logger: false });
    try {
      const { code, stderr } = await arcbenchRun('wrong-key', `target: { url: "${server.url}", api_key: not-the-key }\n`);
      expect(code).toBe(2);
      expectOneSentence(stderr, /^arcbench run: could not list the games at http:\/\/127\.0\.0\.1:\d+: .*X-API-Key.*; check the API key/);
      expect(stderr).not.toContain('not-the-key');
    } finally {
      await server.close();
    }
  }, 30_000);

  it('says the host is out of reach, in one sentence, and exits 2', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    probe.close();
    const { code, stderr } = await arcbenchRun('unreachable', `target: { url: "http://127.0.0.1:${port}", api_key: k }\ntimeouts: { max_retries: 0 }\n`);
    expect(code).toBe(2);
    expectOneSentence(stderr, /^arcbench run: could not list the games at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*; check target\.url/);
  }, 30_000);

  it('says the results folder cannot be made, in one sentence, and exits 2', async () => {
    const { code, stderr } = await arcbenchRun('bad-out', '', ['--out', '/dev/null/x']);
    expect(code).toBe(2);
    expectOneSentence(stderr, /^arcbench run: cannot create the results folder \/dev\/null\/x: a folder above it is a file; choose another --out/);
  }, 30_000);

  // Node's recursive mkdir loops forever in native code where mkdir answers ENOENT under an existing parent.
  it('says a results folder under /proc cannot be made, and exits 2 rather than spinning forever', async () => {
    const { code, stderr } = await arcbenchRun('proc-out', '', ['--out', '/proc/arcbench-x/y']);
    expect(code).toBe(2);
    expectOneSentence(stderr, /^arcbench run: cannot create the results folder \/proc\/arcbench-x\/y \(ENOENT\); choose another folder with --out/);
  }, 30_000);

  it("prints each card's page at the end of a run against a URL, and arcbench serve answers it", async () => {
    const server = await startServer({ logger: false });
    try {
      const { code, stdout } = await arcbenchRun('page', `target: { url: "${server.url}", api_key: k }\n`);
      expect(code).toBe(0);
      const printed = new RegExp(`^scorecard of random: (${server.url}/scorecards/[0-9a-f-]{36})$`, 'm').exec(stdout);
      expect(printed).not.toBeNull();
      // The page answers, as a browser asks it (no key, no cookie): the card's game and its totals.
      const page = await fetch(printed![1]!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      const run = JSON.parse(readFileSync(join(dir, 'page', 'run.json'), 'utf8')) as RunReport;
      const card = firstOf(run.agents, 'agent of run.json').scorecard!;
      expect(html).toContain(`Scorecard ${card.card_id}`);
      expect(html).toMatch(/<tr data-game="crat-[^"]+"><td>crat-/);
      expect(html).toContain(`<td>total</td><td class="num">${card.score!.toFixed(2)}</td>`);
      const missing = await fetch(`${server.url}/scorecards/no-such-card`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('No scorecard no-such-card here');
    } finally {
      await server.close();
    }
  }, 30_000);
});
