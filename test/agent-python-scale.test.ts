/**
 * Python agents through resume after `kill -9` of a real `arcbench run`, and through `--shard` + merge:
 * the folders end with every planned episode once, and the same results as an uninterrupted run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { keyOfRecord } from '../src/runfolder/episodeKey.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { mergeRuns } from '../src/runner/merge/mergeRuns.ts';
import { runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { copyPythonFixtures, processesMentioning } from './support/pythonAgents.ts';

let dir: string;
const GAMES = ['lamp', 'crat'];
const EPISODES = 2;

function experimentFile(name: string, marker: string): string {
  const file = join(dir, `${name}.yaml`);
  const lines = [
    `name: ${name}`,
    `games: [${GAMES.join(', ')}]`,
    'agents:',
    `  - { use: ./trap_agent.py, params: { marker: ${JSON.stringify(marker)} } }`,
    '  - { use: ./random_agent.py, label: random-py }',
    `episodes: ${EPISODES}`,
    'seed: 4',
    'budgets: { max_actions: 30 }',
    'concurrency: 1',
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}

const readReport = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;

/** Each episode's key with what decides its result: outcome, counted actions, levels. */
function results(out: string): Record<string, unknown> {
  const entries = readRunFolder(out).records.map((r) => [keyOfRecord(r), [r.outcome, r.actions, r.levels_completed, r.score]] as const);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

let whole: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-scale-'));
  copyPythonFixtures(dir);
  const disarmed = join(dir, 'disarmed.marker');
  writeFileSync(disarmed, '');
  whole = join(dir, 'whole');
  const result = await runExperiment(await loadExperiment(experimentFile('whole', disarmed)), { out: whole });
  expect(result.report.totals.episodes).toBe(2 * GAMES.length * EPISODES);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Python agents at scale', () => {
  it('resume after kill -9 of arcbench run: every episode once, the results of an uninterrupted run', async () => {
    const marker = join(dir, 'trap.marker');
    const file = experimentFile('killed', marker);
    const out = join(dir, 'killed');
    const run = startArcbench(['run', file, '--out', out], dir);
    await waitUntil(() => existsSync(marker), 'the trap agent to freeze in a lamp episode', 90_000);
    run.child.kill('SIGKILL');
    await run.exited;
    await waitUntil(() => processesMentioning(dir).filter((line) => line.includes('arcbench_host')).length === 0, 'the agent process to exit', 5000);
    expect(readRunFolder(out).records.length).toBeLessThan(2 * GAMES.length * EPISODES);

    const resumed = await runArcbench(['resume', out], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = readReport(out);
    expect(report.status).toBe('completed');
    // The killed attempt's cards died with its in-process service (`lost`); the resume's are closed.
    expect(report.cards.filter((card) => card.attempt === 2).map((card) => card.state)).toEqual(['closed', 'closed']);
    expect(report.cards.every((card) => card.state === 'closed' || card.state === 'lost')).toBe(true);
    expect(results(out)).toEqual(results(whole));
  }, 180_000);

  it('--shard 0/3, 1/3, 2/3 and merge: the results of the unsharded run', async () => {
    const experiment = await loadExperiment(experimentFile('sharded', join(dir, 'disarmed.marker')));
    const shards = [0, 1, 2].map((index) => join(dir, `shard-${index}`));
    for (const [index, out] of shards.entries()) await runExperiment(experiment, { out, shard: { index, count: 3 } });
    const merged = join(dir, 'merged');
    await mergeRuns(shards, { out: merged });
    expect(results(merged)).toEqual(results(whole));
    expect(processesMentioning(dir)).toEqual([]);
  }, 180_000);
});
