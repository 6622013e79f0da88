// A command loads only what it needs: a run on the in-process reference never loads fastify (the HTTP
// server), undici (the HTTP client), bullmq and ioredis (the worker pool) nor the model SDKs (openai, @anthropic-ai/sdk: the llm agent),
// and a plugin importing the package entry loads none of them either. Checked in a child process whose
// every resolved module is recorded by a hook; `serve` and `worker` show the recorder does see fastify
// and bullmq when they are loaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const RECORDER = join(ROOT, 'test', 'support', 'recordModules.mjs');

/** Packages only some commands need: the HTTP server and client, the worker pool, the llm agent's SDK. */
const ON_DEMAND = ['fastify', 'undici', 'bullmq', 'ioredis', 'openai', '@anthropic-ai/sdk'];

describe('what a command loads', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-loads-'));
    writeFileSync(join(dir, 'local.yaml'), 'name: local\ngames: [slid]\nagents: [{ use: random }, { use: explorer }]\nbudgets: { max_actions: 20 }\n');
    writeFileSync(
      join(dir, 'plugin.mjs'),
      `import { defineAgent, reset } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};\nconsole.log(typeof defineAgent, typeof reset);\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The URLs of the modules `node <args>` resolved, after checking it succeeded. */
  function modulesLoadedBy(name: string, ...args: string[]): string[] {
    const record = join(dir, `${name}.modules`);
    writeFileSync(record, '');
    const result = spawnSync(process.execPath, ['--import', RECORDER, ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, RECORD_MODULES_TO: record },
    });
    expect(result.status, result.stderr).toBe(0);
    return readFileSync(record, 'utf8').split('\n').filter(Boolean);
  }

  /** The same for `arcbench <args>`, from the sources. */
  const modulesLoadedByCommand = (name: string, ...args: string[]) => modulesLoadedBy(name, join(ROOT, 'bin', 'arcbench.js'), ...args);

  const fromPackage = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);
  const packagesAmong = (modules: string[], names: string[]) => names.filter((name) => modules.some(fromPackage(name)));

  it('a run on the in-process reference loads none of fastify, undici, bullmq, ioredis, openai, @anthropic-ai/sdk', () => {
    const modules = modulesLoadedByCommand('run', 'run', 'local.yaml', '--out', 'out');
    expect(modules.some((url) => url.endsWith('/src/runner/runExperiment.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/agents/explorer.ts'))).toBe(true);
    expect(packagesAmong(modules, ON_DEMAND)).toEqual([]);
  });

  it('importing the package entry loads none of fastify, undici, bullmq, ioredis, openai, @anthropic-ai/sdk', () => {
    const modules = modulesLoadedBy('entry', join(ROOT, 'bin', 'run-ts.js'), join(dir, 'plugin.mjs'));
    expect(modules.some((url) => url.endsWith('/src/index.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/src/runner/runExperiment.ts'))).toBe(true);
    expect(packagesAmong(modules, ON_DEMAND)).toEqual([]);
  });

  it('importing the built package entry loads neither esbuild nor tsx (they bundle the report and load .ts plugins, when asked)', () => {
    // From the build, as an installed package is imported: the sources themselves run through tsx.
    writeFileSync(
      join(dir, 'built-entry.mjs'),
      `import * as arcbench from ${JSON.stringify(join(ROOT, 'dist', 'src', 'index.js'))};\nconsole.log(typeof arcbench.writeReport);\n`,
    );
    const modules = modulesLoadedBy('built-entry', join(dir, 'built-entry.mjs'));
    expect(modules.some((url) => url.endsWith('/dist/src/report/writeReport.js'))).toBe(true);
    expect(packagesAmong(modules, [...ON_DEMAND, 'esbuild', 'tsx'])).toEqual([]);
  });

  it('the built CLI loads esbuild when it writes a report (the recorder sees it)', () => {
    const modules = modulesLoadedBy('built-run', join(ROOT, 'dist', 'src', 'cli', 'main.js'), 'run', 'local.yaml', '--out', 'built-out');
    expect(packagesAmong(modules, ['esbuild'])).toEqual(['esbuild']);
  });

  it('serve loads fastify (the recorder sees it)', () => {
    expect(modulesLoadedByCommand('serve', 'serve', '--help').some(fromPackage('fastify'))).toBe(true);
  });

  it('worker loads bullmq and ioredis (the recorder sees them)', () => {
    expect(packagesAmong(modulesLoadedByCommand('worker', 'worker', '--help'), ['bullmq', 'ioredis'])).toEqual(['bullmq', 'ioredis']);
  });
});
