/**
 * `arcbench serve` as a user runs it: a real process, its URL read from stdout, a request, SIGTERM and a
 * clean exit; and a malformed keys file refused with exit 2 and a message naming the line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendRequest } from './support/httpDriver.ts';
import { tempDir } from './support/tempDir.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const BIN = ARCBENCH_BIN;

function runServe(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /^(http:\/\/\S+)\n/.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

describe('arcbench serve', () => {
  it('prints its URL, serves, and exits 0 on SIGTERM', async () => {
    const serve = runServe(['--port', '0', '--backends', '2', '--log-level', 'silent'], { ARCBENCH_KEYS: 'cli-key-1 alice, cli-key-2 bob' });
    try {
      const url = await serve.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await sendRequest(url, '/api/healthcheck')).status).toBe(200);
      expect((await sendRequest(url, '/api/games', { headers: { 'x-api-key': 'cli-key-1' } })).status).toBe(200);
      expect((await sendRequest(url, '/api/games', { headers: { 'x-api-key': 'not-a-key' } })).status).toBe(401);
      const open = await sendRequest(url, '/api/scorecard/open', { headers: { 'x-api-key': 'cli-key-2' }, json: {} });
      const cookie = open.setCookies.map((c) => c.split(';')[0]).join('; ');
      const card = await sendRequest(url, `/api/scorecard/${open.body.card_id}`, { headers: { 'x-api-key': 'cli-key-2', cookie } });
      expect(card.body.user_name).toBe('bob');
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    // The URL alone on the one line, so `url=$(arcbench serve | head -1)` works.
    expect(serve.output().stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  }, 30_000);

  it('exits 2 for a port in use, as `arcbench view` does', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = String((taken.address() as AddressInfo).port);
    try {
      const serve = runServe(['--port', port, '--log-level', 'silent']);
      serve.url.catch(() => undefined);
      expect(await serve.exited).toBe(2);
      expect(serve.output().stderr).toContain('the port is in use; pick another --port');
      const view = spawnSync(process.execPath, [BIN, 'view', tempDir('view'), '--port', port], { encoding: 'utf8', timeout: 20_000 });
      expect(view.status).toBe(2);
      expect(view.stderr).toContain(`port ${port} is in use`);
    } finally {
      taken.close();
    }
  }, 40_000);

  it('takes --dialect toolkit, --affinity-grace, --retain-closed and the connection limits', async () => {
    const serve = runServe([
      '--port',
      '0',
      '--log-level',
      'silent',
      '--dialect',
      'toolkit',
      '--affinity-grace',
      '0',
      '--retain-closed',
      '10m',
      '--idle-timeout',
      '5s',
      '--headers-timeout',
      '2s',
      '--request-timeout',
      '3s',
      '--max-connections',
      '8',
    ]);
    try {
      const url = await serve.url;
      const games = await sendRequest(url, '/api/games', { headers: { 'x-api-key': 'k' } });
      expect(games.status).toBe(200);
      expect(games.body[0]).not.toHaveProperty('baseline_actions');
      expect(games.headers['keep-alive']).toBe('timeout=5');
      const { api_key } = (await sendRequest(url, '/api/games/anonkey')).body;
      expect((await sendRequest(url, '/api/games', { headers: { 'x-api-key': api_key } })).status).toBe(200);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
  }, 30_000);

  it('refuses flags that cannot work with exit 2 and a sentence naming them', async () => {
    for (const [args, message] of [
      [['--headers-timeout', '60s', '--request-timeout', '30s'], /--headers-timeout \(60s\) must not exceed --request-timeout \(30s\)/],
      [['--affinity-grace', 'soon'], /--affinity-grace takes a duration such as 500ms, 90s, 15m or 24h/],
      [['--dialect', 'flask'], /--dialect.*flask.*arcbench, toolkit/],
      [['--competition'], /--competition is the toolkit server's competition mode; add --dialect toolkit/],
    ] as const) {
      const serve = runServe(['--port', '0', ...args]);
      serve.url.catch(() => undefined);
      expect(await serve.exited).toBe(2);
      expect(serve.output().stderr).toMatch(message);
    }
  }, 30_000);

  it('refuses a malformed keys file with exit 2, naming the file and line', async () => {
    const dir = tempDir('serve');
    const file = join(dir, 'keys.txt');
    writeFileSync(file, '# keys\nkey-1 alice\nkey-2\n');
    const serve = runServe(['--port', '0', '--keys', file]);
    serve.url.catch(() => undefined);
    expect(await serve.exited).toBe(2);
    expect(serve.output().stderr).toContain(`${file}:3:`);
  }, 30_000);
});
