/**
 * Python agents start fast however much their module imports (docs/agent-protocol.md §8): a fork
 * server imports the module once and forks a fresh child per episode. The agent here
 * (test/fixtures/python/slow_import_agent.py) takes a second to import and counts its imports in a
 * file; by default four episodes import it once more than loading the config does, nothing one
 * episode sets on its class reaches the next, and no process is left the moment the run returns (the
 * runner closes the server). ARCBENCH_FORK=0 starts a process per episode instead.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-pyfork-'));
  copyPythonFixtures(dir);
});

afterEach(() => {
  delete process.env.ARCBENCH_FORK;
  rmSync(join(dir, 'imports.log'), { force: true });
  rmSync(join(dir, 'seen.log'), { force: true });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n');

function writeExperiment(): string {
  const file = join(dir, 'fork.yaml');
  const agents = ['agents:', '  - { use: ./slow_import_agent.py, label: slow }'];
  writeFileSync(file, ['name: fork', 'target: reference', 'games: [flod]', ...agents, 'episodes: 4', 'seed: 3', 'concurrency: 2', ''].join('\n'));
  return file;
}

describe('a Python agent whose module imports slowly', () => {
  it('imports its module once for four episodes by default, each in a fresh copy, and leaves no process the moment the run returns', async () => {
    const config = await loadExperiment(writeExperiment());
    // Loading the config asks the module's hello once: one import.
    expect(lines('imports.log')).toHaveLength(1);
    const result = await runExperiment(config, { out: join(dir, 'out') });
    expect(result.episodes.map((e) => [e.outcome, e.error?.message])).toEqual(Array(4).fill(['agent_stop', undefined]));
    // The fork server imported it once more; the four episodes were forked from it.
    expect(lines('imports.log')).toHaveLength(2);
    // Each episode saw its class as the import left it.
    expect(lines('seen.log')).toEqual(['0', '0', '0', '0']);
    expect(processesMentioning(dir)).toEqual([]);
  }, 60_000);

  it('ARCBENCH_FORK=0: each episode starts a process of its own, which imports the module', async () => {
    process.env.ARCBENCH_FORK = '0';
    const config = await loadExperiment(writeExperiment());
    const result = await runExperiment(config, { out: join(dir, 'out-unforked') });
    expect(result.episodes.map((e) => e.outcome)).toEqual(Array(4).fill('agent_stop'));
    expect(lines('imports.log')).toHaveLength(5);
    expect(processesMentioning(dir)).toEqual([]);
  }, 60_000);
});
