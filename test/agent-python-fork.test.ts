/**
 * Python agents start fast however much their module imports (docs/agent-protocol.md §8): a fork
 * server imports the module once and forks a fresh child per episode. The agent here
 * (test/fixtures/python/slow_import_agent.py) takes a second to import and counts its imports in a
 * file; four episodes import it once more than loading the config does, nothing one episode sets on
 * its class reaches the next, and no process outlives the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { waitUntil } from './support/arcbenchProcess.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-pyfork-'));
  copyPythonFixtures(dir);
  process.env.ARCBENCH_FORK = '1';
});

afterAll(() => {
  delete process.env.ARCBENCH_FORK;
  rmSync(dir, { recursive: true, force: true });
});

const lines = (file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n');

describe('a Python agent whose module imports slowly', () => {
  it('imports its module once for four episodes, each in a fresh copy, and leaves no process behind', async () => {
    writeFileSync(
      join(dir, 'fork.yaml'),
      [
        'name: fork',
        'target: reference',
        'games: [flod]',
        'agents:',
        '  - { use: ./slow_import_agent.py, label: slow }',
        'episodes: 4',
        'seed: 3',
        'concurrency: 2',
        '',
      ].join('\n'),
    );
    const config = await loadExperiment(join(dir, 'fork.yaml'));
    // Loading the config asks the module's hello once: one import.
    expect(lines('imports.log')).toHaveLength(1);
    const result = await runExperiment(config, { out: join(dir, 'out') });
    expect(result.episodes.map((e) => [e.outcome, e.error?.message])).toEqual(Array(4).fill(['agent_stop', undefined]));
    // The fork server imported it once more; the four episodes were forked from it.
    expect(lines('imports.log')).toHaveLength(2);
    // Each episode saw its class as the import left it.
    expect(lines('seen.log')).toEqual(['0', '0', '0', '0']);
    await waitUntil(() => processesMentioning(dir).length === 0, 'no process of the run to be left', 5000);
  }, 60_000);
});
