// Statistics in every run and the regression gate, end to end: real in-process runs, the real CLI in a
// child process (for exit codes, stdout and stderr), real files in a temp folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonDocument } from '../src/analysis/gate.ts';
import { ConfigError, experimentFromFlags, loadExperiment } from '../src/runner/config/loader.ts';
import { readRunReport, type TableRow } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { itemAt } from './support/lists.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const cli = ARCBENCH_BIN;
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const JUNIT_XSD = readFileSync(fixture('junit.xsd'), 'utf8');

const dir = mkdtempSync(join(tmpdir(), 'arcbench-statistics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function arcbench(args: string[], env: NodeJS.ProcessEnv = {}) {
  // No TTY on stderr here, as in CI.
  return spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: dir,
    env: { ...process.env, ...env, GITHUB_STEP_SUMMARY: env.GITHUB_STEP_SUMMARY ?? '' },
  });
}

/** An experiment file in the temp folder; `explorer` is the built-in unless another `use` is given. */
function experimentFile(name: string, explorerUse = 'explorer'): string {
  const path = join(dir, `${name}.yaml`);
  const lines = [
    `name: ${name}`,
    'games: [flod, crat]',
    'agents:',
    '  - use: random',
    `  - use: ${explorerUse}`,
    '    label: explorer',
    'episodes: 4',
    'seed: 3',
    'budgets: { max_actions: 300 }',
    'recordings: false',
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

async function validJunit(runDir: string): Promise<string> {
  const xml = readFileSync(join(runDir, 'junit.xml'), 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: JUNIT_XSD }] });
  expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
  expect(result.valid).toBe(true);
  return xml;
}

// Run folders the compare tests read, made here so that no test depends on another's output.
const baselineDir = join(dir, 'baseline');
const rerunDir = join(dir, 'rerun');
const weakDir = join(dir, 'weak');
beforeAll(async () => {
  const nightly = await loadExperiment(experimentFile('nightly'));
  await runExperiment(nightly, { out: baselineDir });
  await runExperiment(nightly, { out: rerunDir });
  await runExperiment(await loadExperiment(experimentFile('weakened', fixture('weakExplorer.ts'))), { out: weakDir });
});

describe('the regression gate (done when)', () => {
  it('an identical rerun (same seed, in-process) compares as identical and exits 0 under --fail-on-regression', async () => {
    const result = arcbench(['run', 'nightly.yaml', '--out', 'rerun-gated', '--baseline', baselineDir, '--fail-on-regression', '--per-game']);
    expect(result.stderr).not.toMatch(/regression against/);
    expect(result.status).toBe(0);
    const comparison = readJson<ComparisonDocument>(join(dir, 'rerun-gated', 'comparison.json'));
    expect(comparison.rows.length).toBe(6);
    expect(comparison.rows.every((row) => row.verdict === 'identical' && row.pairing === 'paired')).toBe(true);
    expect(comparison.failed).toBe(false);
    expect(result.stdout).toContain('identical');
    // The harness cards are compared first, as `compare` does: the same config makes the same card.
    expect((comparison as ComparisonDocument & { harness_cards: { state: string } }).harness_cards.state).toBe('identical');
    expect(result.stdout).toContain('Harness cards: identical');
    expect(readFileSync(join(dir, 'rerun-gated', 'comparison.md'), 'utf8').startsWith('Harness cards: identical')).toBe(true);
    await validJunit(join(dir, 'rerun-gated'));
  });

  it('a candidate whose explorer label plays a weakened agent exits 1, in junit.xml and the step summary', async () => {
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# earlier steps\n');
    const result = arcbench(['run', 'weakened.yaml', '--out', 'weak-gated', '--baseline', baselineDir, '--fail-on-regression'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`arcbench run: regression against ${baselineDir}; see comparison.md in the results folder`);

    const comparison = readJson<ComparisonDocument>(join(dir, 'weak-gated', 'comparison.json'));
    expect(comparison.regressions.map((r) => `${r.agent} ${r.game}`)).toEqual(['explorer total']);
    // The weakened agent is another agent under the same label: its card says so before any score.
    const cards = (comparison as ComparisonDocument & { harness_cards: { state: string } }).harness_cards;
    expect(cards.state).toBe('different');
    const markdown = readFileSync(join(dir, 'weak-gated', 'comparison.md'), 'utf8');
    expect(markdown.startsWith('Harness cards differ (baseline → candidate)')).toBe(true);
    expect(result.stdout.indexOf('Harness cards differ')).toBeLessThan(result.stdout.indexOf('worse'));
    const random = comparison.rows.find((r) => r.agent === 'random' && r.game === 'total')!;
    expect(random.verdict).toBe('identical');

    const xml = await validJunit(join(dir, 'weak-gated'));
    expect(xml).toMatch(/<testcase classname="explorer" name="total">\s*<failure message="regressed against [^"]+" type="regression"\/>/);
    expect(xml).toMatch(/<testsuite name="random"[^>]* failures="0"/);

    const written = readFileSync(summary, 'utf8');
    expect(written.startsWith('# earlier steps\n## arcbench run: weakened\n')).toBe(true);
    expect(written).toContain(
      '| agent | game | episodes | card score | service score | mean score | 95% CI | levels | actions | × human actions | wins | errors |',
    );
    expect(written).toContain('### Against the baseline');
    expect(written).toMatch(/\| explorer \| \*\*total\*\* \|.*\*\*worse\*\* \|/);
  });

  it('cannot compare runs with no agent in common: exit 2 and a sentence, before playing', () => {
    const result = arcbench(['run', '--agent', fixture('failingAgent.ts'), '--game', 'crat', '--baseline', baselineDir, '--out', 'never']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `arcbench run: --baseline ${baselineDir}: it shares no agent label with this run (baseline: random, explorer; this run: failing); give a run of the same config\n`,
    );
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

describe('statistics in every run', () => {
  const intervalOfTotal = (rows: readonly TableRow[]) => rows.find((r) => r.game === 'total')!.interval;

  it('the interval narrows as episodes grow, and is unavailable below 2 episodes', async () => {
    const widths: number[] = [];
    for (const episodes of [3, 12]) {
      const experiment = await experimentFromFlags(['random'], { baseDir: dir, overrides: { games: ['crat'], episodes, seed: 11 } });
      const { report } = await runExperiment({ ...experiment, config: { ...experiment.config, recordings: false } }, { out: join(dir, `narrow-${episodes}`) });
      const interval = intervalOfTotal(report.table!)!;
      widths.push(interval.high - interval.low);
    }
    expect(itemAt(widths, 1, 'width')).toBeLessThan(itemAt(widths, 0, 'width'));

    const single = await experimentFromFlags(['random'], { baseDir: dir, overrides: { games: ['crat'], episodes: 1 } });
    const { report, table } = await runExperiment(single, { out: join(dir, 'single') });
    expect(intervalOfTotal(report.table!)).toBeNull();
    expect(table).toContain('n/a (< 2 episodes)');
  });

  it('episodes.jsonl holds each episode’s own score; the table its mean, the card score and the counts', () => {
    const episodes = readFileSync(join(baselineDir, 'episodes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { agent: string; game_id: string; score: number; levels_completed: number });
    const run = readRunReport(baselineDir);
    for (const row of run.table!.filter((r) => r.game !== 'total')) {
      const scores = episodes.filter((e) => e.agent === row.agent && e.game_id === row.game).map((e) => e.score);
      expect(row.episodes).toBe(4);
      expect(row.mean_score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 10);
      // The card keeps the best episode: at least the mean, and exactly the best episode's score.
      expect(row.card_score).toBeCloseTo(Math.max(...scores), 10);
      // Beside it, the service's own score on the card it returned: the same.
      expect(row.service_score).toBeCloseTo(row.card_score!, 9);
      expect(row.interval!.low).toBeLessThanOrEqual(row.mean_score!);
      expect(row.interval!.high).toBeGreaterThanOrEqual(row.mean_score!);
    }
    expect(readFileSync(join(baselineDir, 'table.md'), 'utf8')).toContain(
      '| agent | game | episodes | card score | service score | mean score | 95% CI | levels | actions | × human actions | wins | errors |',
    );
  });

  it('junit.xml fails the cases whose episodes failed, and validates', async () => {
    const result = arcbench(['run', '--agent', `random,${fixture('failingAgent.ts')}`, '--game', 'crat,lamp', '--episodes', '2', '--out', 'failing']);
    expect(result.status).toBe(1);
    const xml = await validJunit(join(dir, 'failing'));
    expect(xml).toMatch(/<testsuite name="failing"[^>]* tests="2" failures="2"/);
    expect(xml).toMatch(
      /<failure message="2 of 2 episode\(s\) failed; first: episode 0: agent: this agent fails on purpose at step 2" type="episode_error"\/>/,
    );
    expect(xml).toMatch(/<testsuite name="random"[^>]* tests="2" failures="0"/);
  });
});

describe('output for machines and for CI logs', () => {
  it('--json prints one summary on stdout and nothing else; stderr gets readable lines, run.log keeps JSON', () => {
    const result = arcbench(['run', '--agent', 'random', '--game', 'crat', '--episodes', '2', '--json', '--out', 'json']);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      format: string;
      status: string;
      exit_code: number;
      run_dir: string;
      table: TableRow[];
      table_notes: string[];
    };
    expect(summary).toMatchObject({ format: 'arcbench.run-summary/1', status: 'completed', exit_code: 0, run_dir: join(dir, 'json') });
    expect(summary.table.map((r) => r.game)).toEqual(['crat-a280ea19', 'total']);
    // One game: its total's interval is over its episodes, and the notes say so, as under the table.
    expect(summary.table.map((r) => r.interval_method)).toEqual(['episode-bootstrap', 'episode-bootstrap']);
    expect(summary.table_notes[0]).toContain('a total of one game (random) resamples its episodes and says nothing of other games');

    const lines = result.stderr.trim().split('\n');
    expect(lines.some((line) => line.trimStart().startsWith('{'))).toBe(false);
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d episode finished agent=random game=crat-a280ea19 episode=0 outcome=budget actions=80 levels=\d+$/),
    );
    const log = readFileSync(join(dir, 'json', 'run.log'), 'utf8')
      .trim()
      .split('\n');
    expect(log.every((line) => typeof (JSON.parse(line) as { msg: unknown }).msg === 'string')).toBe(true);
  });
});

describe('quick overrides and a first try', () => {
  it('--games --agents --episodes --max-actions override the file, checked like it', async () => {
    const compare = fileURLToPath(new URL('../configs/compare.yaml', import.meta.url));
    const experiment = await loadExperiment(compare, { overrides: { games: ['lamp', 'crat'], agents: ['explorer-default'], episodes: 5, max_actions: 200 } });
    expect(experiment.config.games).toEqual(['lamp', 'crat']);
    expect(experiment.agents.map((a) => a.label)).toEqual(['explorer-default']);
    expect(experiment.config.agents).toHaveLength(1);
    expect(experiment.config.episodes).toBe(5);
    expect(experiment.config.budgets.max_actions).toBe(200);
    await expect(loadExperiment(compare, { overrides: { agents: ['explorer'] } })).rejects.toThrow(
      new ConfigError(
        'compare.yaml: --agents: no agent labelled "explorer" in this experiment; its labels: random, explorer-default, explorer-undo, explorer-hud-hashed',
      ),
    );
    await expect(loadExperiment(compare, { overrides: { max_actions: 0 } })).rejects.toThrow(/compare\.yaml: budgets\.max_actions: /);
  });

  it('arcbench run --agent random --game crat plays without a config file', () => {
    const result = arcbench(['run', '--agent', 'random', '--game', 'crat', '--out', 'first-try']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/│ random │ crat-a280ea19 │ +1 │/);
    expect(readRunReport(join(dir, 'first-try')).name).toBe('try');
  });
});

describe('arcbench compare', () => {
  it('prints the comparison as a table, markdown or JSON; exits 2 with a sentence when runs cannot be compared', () => {
    const table = arcbench(['compare', baselineDir, rerunDir, '--per-game']);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/│ explorer │ flod-ce841f4d │ +4 \/ 4 │/);
    const markdown = arcbench(['compare', baselineDir, weakDir, '--markdown', '--fail-on-regression']);
    expect(markdown.status).toBe(1);
    expect(markdown.stdout).toContain('| explorer | **total** |');
    const json = arcbench(['compare', baselineDir, join(weakDir, 'run.json'), '--json', '--threshold', '1000']);
    expect(json.status).toBe(0);
    expect((JSON.parse(json.stdout) as ComparisonDocument).threshold).toBe(1000);

    const agents = arcbench(['compare', baselineDir, baselineDir, '--baseline-agent', 'random', '--candidate-agent', 'explorer', '--json']);
    expect(agents.status).toBe(0);
    const total = (JSON.parse(agents.stdout) as ComparisonDocument).rows.find((r) => r.game === 'total')!;
    expect(total).toMatchObject({
      agent: 'random → explorer',
      pairing: 'unpaired',
      note: 'crat-a280ea19: episode seeds differ (another run seed or agent label); flod-ce841f4d: episode seeds differ (another run seed or agent label)',
    });
    expect(arcbench(['compare', baselineDir, baselineDir, '--baseline-agent', 'random']).status).toBe(2);

    expect(arcbench(['run', '--agent', fixture('failingAgent.ts'), '--game', 'flod', '--out', 'only-failing']).status).toBe(1);
    const noCommonAgent = arcbench(['compare', baselineDir, join(dir, 'only-failing')]);
    expect(noCommonAgent.status).toBe(2);
    expect(noCommonAgent.stderr).toBe(
      'arcbench compare: the runs share no agent label (baseline: random, explorer; candidate: failing); compare runs of the same config, or give the agents the same labels\n',
    );
    const notARun = arcbench(['compare', baselineDir, join(dir, 'nowhere')]);
    expect(notARun.status).toBe(2);
    expect(notARun.stderr).toContain(
      `arcbench compare: ${join(dir, 'nowhere')}: no such file or folder; give a run folder written by \`arcbench run\`, or its run.json`,
    );
  });
});
