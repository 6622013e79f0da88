// A command loads only what it needs: a run on the in-process reference never loads fastify (the HTTP
// server) nor undici (the HTTP client). Checked in a child process whose every resolved module is
// recorded by a hook; `serve` shows the recorder does see fastify when it is loaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const RECORDER = join(ROOT, 'test', 'support', 'recordModules.mjs');

describe('what a command loads', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-loads-'));
    writeFileSync(join(dir, 'local.yaml'), 'name: local\ngames: [slid]\nagents: [{ use: random }, { use: explorer }]\nbudgets: { max_actions: 20 }\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The URLs of the modules `arcbench <args>` (from the sources) resolved, after checking it succeeded. */
  function modulesLoadedBy(name: string, ...args: string[]): string[] {
    const record = join(dir, `${name}.modules`);
    writeFileSync(record, '');
    const result = spawnSync(process.execPath, ['--import', RECORDER, join(ROOT, 'bin', 'arcbench.js'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, RECORD_MODULES_TO: record },
    });
    expect(result.status, result.stderr).toBe(0);
    return readFileSync(record, 'utf8').split('\n').filter(Boolean);
  }

  const fromPackage = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);

  it('a run on the in-process reference loads neither fastify nor undici', () => {
    const modules = modulesLoadedBy('run', 'run', 'local.yaml', '--out', 'out');
    expect(modules.some((url) => url.endsWith('/src/runner/runExperiment.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/agents/explorer.ts'))).toBe(true);
    expect(modules.filter(fromPackage('fastify'))).toEqual([]);
    expect(modules.filter(fromPackage('undici'))).toEqual([]);
  });

  it('serve loads fastify (the recorder sees it)', () => {
    expect(modulesLoadedBy('serve', 'serve', '--help').some(fromPackage('fastify'))).toBe(true);
  });
});
