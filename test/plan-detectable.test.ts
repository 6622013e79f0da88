// `arcbench plan --from RUN`: the minimum detectable difference ahead of a run, from the spread an
// earlier real run showed, checked against the formula worked here from its episodes.jsonl; and the
// pooled spread's properties (fast-check).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { sampleStandardDeviation } from 'simple-statistics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withinGameSpread } from '../src/analysis/plannedDetectable.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runArcbench } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-plan-mdd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, lines: string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `${[`name: ${name}`, 'agents:', '  - use: random', '  - use: explorer', 'seed: 9', 'recordings: false', 'budgets: { max_actions: 80 }', ...lines].join('\n')}\n`,
  );
  return path;
}

const earlier = join(dir, 'earlier');
beforeAll(async () => {
  await runExperiment(await loadExperiment(configFile('earlier', ['games: [flod, crat]', 'episodes: 2', 'repeats: 2'])), { out: earlier });
}, 120_000);

describe('plan --from RUN', () => {
  it('states the smallest difference the planned games and repeats can tell from noise, from the earlier run’s spread', async () => {
    const planned = configFile('planned', ['games: [flod, crat, lamp, slid, keys, plnk]', 'episodes: 1', 'repeats: 3']);
    const result = await runArcbench(['plan', planned, '--from', earlier], dir);
    expect(result.code, result.stderr).toBe(0);
    // Pooled within-(agent, game) SD of the earlier run's episode scores.
    const cells = new Map<string, number[]>();
    for (const e of readRunFolder(earlier).episodes) cells.set(`${e.agent} ${e.game_id}`, [...(cells.get(`${e.agent} ${e.game_id}`) ?? []), e.score!]);
    const squares = [...cells.values()].reduce((sum, s) => sum + sampleStandardDeviation(s) ** 2 * (s.length - 1), 0);
    const sd = Math.sqrt(squares / [...cells.values()].reduce((sum, s) => sum + s.length - 1, 0));
    // 6 games, 3 episodes per game per arm: (t(5) at 97.5% + z at 80%) × σ√(2/3) / √6.
    const mdd = (2.5705818366147395 + 0.8416212335729143) * ((sd * Math.sqrt(2 / 3)) / Math.sqrt(6));
    expect(result.stdout).toContain(`with 3 repeats of these 6 games, a difference under ${mdd.toFixed(2)} points cannot be told from noise`);
    expect(result.stdout).toContain(`spread with SD ${sd.toFixed(2)} (16 episodes in 4 agent-game cells)`);

    const json = await runArcbench(['plan', planned, '--from', earlier, '--json'], dir);
    const line = json.stdout.split('\n').find((l) => l.startsWith('{"detectable"'))!;
    expect(JSON.parse(line).detectable.minimum_detectable).toBeCloseTo(mdd, 6);
  });

  it('refuses an earlier run with one episode per agent and game, saying what to run instead', async () => {
    const single = join(dir, 'single');
    await runExperiment(await loadExperiment(configFile('single', ['games: [flod]', 'episodes: 1'])), { out: single });
    const next = configFile('next', ['games: [flod, crat]', 'episodes: 1']);
    const result = await runArcbench(['plan', next, '--from', single], dir);
    const why = `--from ${single}: no agent played a game there more than once, and one episode shows no spread to plan from; run it with \`repeats: 2\` (or more episodes) first`;
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`arcbench plan: ${why}\n`);
    // Beside --estimate, which any earlier run serves, the estimate is given and the MDD said unknown, with why.
    const estimated = await runArcbench(['plan', next, '--estimate', '--from', single], dir);
    expect(estimated.code, estimated.stderr).toBe(0);
    expect(estimated.stdout).toContain('estimated cost of the plan');
    expect(estimated.stdout).toContain(`minimum detectable difference: unknown: ${why}\n`);
  });
});

describe('the pooled spread within games', () => {
  const cell = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 2, maxLength: 6 });

  it('is the sample SD for one cell, and unmoved by shifting each cell on its own', () => {
    fc.assert(
      fc.property(cell, cell, fc.double({ min: -20, max: 20, noNaN: true }), (a, b, shift) => {
        const one = withinGameSpread(a.map((score) => ({ agent: 'x', game: 'g', score })))!;
        expect(one.sd).toBeCloseTo(sampleStandardDeviation(a), 9);
        const both = (d: number) =>
          withinGameSpread([...a.map((score) => ({ agent: 'x', game: 'g', score: score + d })), ...b.map((score) => ({ agent: 'y', game: 'g', score }))])!;
        expect(both(shift).sd).toBeCloseTo(both(0).sd, 9);
        expect(both(0).cells).toBe(2);
      }),
    );
  });
});
