// Repeats as an axis of the plan: real config files, the real in-process run, the real run folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { repeatOfEpisode, resolvePlan } from '../src/runner/plan.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { referenceTransport } from '../src/runner/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, extra: string[]): string {
  const path = join(dir, `${name}.yaml`);
  const lines = [
    `name: ${name}`,
    'games: [flod]',
    'agents:',
    '  - use: random',
    'episodes: 2',
    'seed: 5',
    'budgets: { max_actions: 20 }',
    'recordings: false',
    ...extra,
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('repeats', () => {
  it('plays each repeat as a full draw with its own seeds, repeat r of episode i as index r × episodes + i', async () => {
    const experiment = await loadExperiment(configFile('three-repeats', ['repeats: 3']));
    const out = join(dir, 'three-repeats');
    await runExperiment(experiment, { out });
    const folder = readRunFolder(out);
    const indices = folder.episodes.map((e) => e.episode).sort((a, b) => a - b);
    expect(indices).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(folder.episodes.map((e) => e.seed)).size).toBe(6);
    expect(indices.map((i) => repeatOfEpisode(i, 2))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(folder.report.plan.repeats).toBe(3);
  });

  it('keeps the seeds (and the fingerprint) of a plan of one repeat as they were', async () => {
    const one = await loadExperiment(configFile('one-repeat', []));
    const three = await loadExperiment(configFile('three-again', ['repeats: 3']));
    const transport = referenceTransport(5);
    const seedsOf = async (e: typeof one) => (await resolvePlan(e, transport)).episodes.map((s) => s.seed);
    const first = await seedsOf(one);
    expect((await seedsOf(three)).slice(0, first.length)).toEqual(first);
    await transport.close();
  });

  it('refuses repeats on competition cards, in a sentence naming the key', async () => {
    const path = join(dir, 'competition.yaml');
    writeFileSync(
      path,
      `${['name: competition', 'games: [flod]', 'agents:', '  - use: random', 'repeats: 2', 'scorecard: { competition_mode: true }'].join('\n')}\n`,
    );
    await expect(loadExperiment(path)).rejects.toThrow(ConfigError);
    await expect(loadExperiment(path)).rejects.toThrow(/repeats must be 1, not 2/);
  });
});
