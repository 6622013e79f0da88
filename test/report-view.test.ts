// `arcbench view` on 127.0.0.1: the list of runs, recordings served, and a run in progress followed
// live in real headless Chromium while a real run plays (its agent waits on a gate file the test opens).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { startViewServer, type ViewServer } from '../src/report/viewServer.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { readRecordingText } from '../src/recording/recordingReader.ts';
import { runExperiment, type RunResult } from '../src/runner/runExperiment.ts';
import { launchChromium, watchPage } from './support/chromium.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// Plays `steps` actions, but waits for the gate file before its second one: the run stays in progress.
const GATED_AGENT = `
import { existsSync } from 'node:fs';
import { defineAgent, z, action, stop } from 'arcbench';

export default defineAgent({
  name: 'gated',
  params: z.strictObject({ gate: z.string(), steps: z.int().min(2) }),
  create: ({ params }) => ({
    async act(frame, { step }) {
      if (step === 1) while (!existsSync(params.gate)) await new Promise((resolve) => setTimeout(resolve, 20));
      return step < params.steps ? action(1) : stop('walked enough');
    },
  }),
});
`;

let dir: string;
let results: string;
let finished: RunResult;
let browser: Browser;
let server: ViewServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-view-'));
  results = join(dir, 'results');
  mkdirSync(results);
  writeFileSync(join(dir, 'done.yaml'), 'name: done\ngames: [slid, lamp]\nagents: [{ use: random }]\nseed: 2\nbudgets: { max_actions: 30 }\n');
  finished = await runExperiment(await loadExperiment(join(dir, 'done.yaml')), { out: join(results, '2025-01-01T00-00-00Z-done') });
  browser = await launchChromium();
  server = await startViewServer(results, 0);
});

afterAll(async () => {
  await server?.close();
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('arcbench view', () => {
  it('lists the runs, serves every recording as its JSON lines, and refuses paths outside the folder', async () => {
    const runs = (await (await fetch(`${server.url}api/runs`)).json()) as Array<{ id: string; status: string; episodes: number; recordings: number }>;
    expect(runs).toEqual([expect.objectContaining({ id: '2025-01-01T00-00-00Z-done', status: 'completed', episodes: 2, recordings: 2 })]);
    for (const episode of finished.episodes) {
      const response = await fetch(`${server.url}runs/2025-01-01T00-00-00Z-done/${episode.recording}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(await readRecordingText(join(finished.runDir, episode.recording!)));
    }
    expect((await fetch(`${server.url}runs/nope/`)).status).toBe(404);
    expect((await fetch(`${server.url}runs/2025-01-01T00-00-00Z-done/recordings/..%2F..%2Fdone.yaml`)).status).toBe(400);
    expect((await fetch(`${server.url}runs/2025-01-01T00-00-00Z-done/run.json`)).status).toBe(404);
    expect((await fetch(`${server.url}api/runs`, { method: 'POST' })).status).toBe(405);
  });

  it('lists a folder it cannot read with the reason, and serves the other runs', async () => {
    const other = join(dir, 'other-results');
    mkdirSync(join(other, 'broken'), { recursive: true });
    writeFileSync(join(other, 'broken', 'run.json'), '{"format": "something else"}');
    cpSync(finished.runDir, join(other, 'fine'), { recursive: true });
    const view = await startViewServer(other, 0);
    try {
      const runs = (await (await fetch(`${view.url}api/runs`)).json()) as Array<{ id: string; status: string; problem: string | null }>;
      expect(runs.find((r) => r.id === 'fine')).toMatchObject({ status: 'completed', problem: null });
      expect(runs.find((r) => r.id === 'broken')).toMatchObject({ status: 'unreadable', problem: expect.stringContaining('run.json') });
      const page = await fetch(`${view.url}runs/broken/`);
      expect(page.status).toBe(422);
      expect(await page.text()).toContain('arcbench view cannot read run "broken"');
      expect((await fetch(`${view.url}runs/fine/`)).status).toBe(200);
    } finally {
      await view.close();
    }
  });

  it('shows a run in progress live, with its episode being played, until it completes', async () => {
    const gate = join(dir, 'gate');
    writeFileSync(join(dir, 'gated.ts'), GATED_AGENT);
    writeFileSync(join(dir, 'live.yaml'), `name: live\ngames: [slid]\nagents: [{ use: ./gated.ts, params: { gate: ${JSON.stringify(gate)}, steps: 6 } }]\n`);
    const liveDir = join(results, '2025-01-02T00-00-00Z-live');
    const running = runExperiment(await loadExperiment(join(dir, 'live.yaml')), { out: liveDir });
    try {
      await expect.poll(() => existsSync(join(liveDir, 'recordings')) && readdirSync(join(liveDir, 'recordings')).length).toBe(1);
      const page = await browser.newPage();
      page.setDefaultTimeout(5000);
      const watch = watchPage(page);
      await page.goto(server.url);
      const liveRow = page.locator('[data-testid=runs] tr[data-run="2025-01-02T00-00-00Z-live"]');
      await expect.poll(() => liveRow.getAttribute('data-status')).toBe('running');
      expect(await page.locator('[data-testid=runs] tr[data-run="2025-01-01T00-00-00Z-done"]').getAttribute('data-status')).toBe('completed');

      await liveRow.getByRole('link').click();
      await expect.poll(() => page.getByTestId('run-status').innerText()).toBe('running');
      expect(await page.getByTestId('live').isVisible()).toBe(true);
      const inProgress = page.locator('[data-testid=episodes] tbody tr[data-outcome="in progress"]');
      expect(await inProgress.count()).toBe(1);
      // The agent waits before its second action: the recording so far is the RESET and one action.
      await expect.poll(() => page.getByTestId('step-counter').innerText()).toBe('0 of 1');
      expect(await page.getByTestId('action').innerText()).toBe('RESET');
      // At the last step, the viewer follows the recording as it grows.
      await page.keyboard.press('End');
      expect(await page.getByTestId('step-counter').innerText()).toBe('1 of 1');

      writeFileSync(gate, 'open');
      await running;
      await expect.poll(() => page.getByTestId('run-status').innerText(), { timeout: 10_000 }).toBe('completed');
      await expect.poll(() => page.locator('[data-testid=episodes] tbody tr[data-outcome="agent_stop"]').count()).toBe(1);
      await expect.poll(() => page.getByTestId('step-counter').innerText()).toBe('6 of 6');
      expect(watch.errors).toEqual([]);
      await page.close();
    } finally {
      writeFileSync(gate, 'open');
      await running;
    }
  });

  it('goes straight to the run when given one run folder', async () => {
    const single = await startViewServer(finished.runDir, 0);
    try {
      const page = await browser.newPage();
      const watch = watchPage(page);
      await page.goto(single.url);
      expect(page.url()).toBe(`${single.url}runs/2025-01-01T00-00-00Z-done/`);
      await expect.poll(() => page.getByTestId('run-status').innerText()).toBe('completed');
      // Every episode can be replayed here, none is disabled for not being embedded.
      expect(await page.locator('[data-testid=episodes] button.replay-button:disabled').count()).toBe(0);
      await page.locator('[data-testid=episodes] tbody tr').nth(1).getByRole('button', { name: 'replay' }).click();
      await expect.poll(() => page.getByTestId('replay-status').innerText()).toContain('steps');
      expect(watch.errors).toEqual([]);
      await page.close();
    } finally {
      await single.close();
    }
  });

  it('as a command: prints its URL and serves; a missing folder exits 2 with a sentence', async () => {
    const child = spawn(process.execPath, [ARCBENCH_BIN, 'view', results, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim().split('\n')[0] ?? ''));
        child.once('exit', (code) => reject(new Error(`view exited ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const runs = (await (await fetch(`${url}api/runs`)).json()) as unknown[];
      expect(runs.length).toBe(2);
    } finally {
      child.kill('SIGINT');
    }
    const missing = spawn(process.execPath, [ARCBENCH_BIN, 'view', join(dir, 'nothing-here')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    missing.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => missing.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('nothing-here: no such folder; give a results folder');
  });
});
