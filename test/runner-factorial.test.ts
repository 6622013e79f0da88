// A factorial experiment end to end: a two-factor entry of the built-in explorer played on the
// in-process reference service; run.json and the report page's data carry each factor's main effect
// and the frontier across the four arms, and every run's harness card; `compare` (the real CLI, in a
// child process) says what differs between two cards before any score, and "unknown" for an old run.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRED_BY_GAME } from '../src/analysis/factorEffects.ts';
import { DEFAULT_RETRY_POLICY } from '../src/client/http/retryPolicy.ts';
import { recordingNameParts } from '../src/recording/recordingWriter.ts';
import type { FactorialSummary } from '../src/analysis/factorialSummary.ts';
import { BOOTSTRAP_ELEMENT_ID, type PageBootstrap } from '../src/report/pageData.ts';
import { buildReportData } from '../src/report/reportData.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { readRunFolderSnapshot } from '../src/runfolder/folderSnapshot.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { readRunReport, type RunReport } from '../src/runfolder/runReport.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { launchChromium, watchPage } from './support/chromium.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-factorial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARMS = [
  'explorer[use_undo=false,clicks=0]',
  'explorer[use_undo=false,clicks=64]',
  'explorer[use_undo=true,clicks=0]',
  'explorer[use_undo=true,clicks=64]',
];

function configText(concurrency: number): string {
  return [
    'name: arms',
    'games: [lamp, crat, flod]',
    'episodes: 2',
    'seed: 5',
    `concurrency: ${concurrency}`,
    'budgets: { max_actions: 60 }',
    'agents:',
    '  - use: explorer',
    '    factors:',
    '      use_undo: [false, true]',
    '      clicks: { param: max_clicks, levels: [0, 64] }',
    '',
  ].join('\n');
}

async function play(name: string, concurrency: number): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, configText(concurrency));
  const out = join(dir, name);
  await runExperiment(await loadExperiment(file), { out });
  return out;
}

let first: string;
let second: string;
let report: RunReport;

beforeAll(async () => {
  first = await play('first', 4);
  second = await play('second', 2);
  report = readRunReport(first);
}, 120_000);

/** The mean over games of the arm's game means, as the results table's total row has it. */
function tableMean(arm: string): number {
  const row = report.table!.find((r) => r.agent === arm && r.game === 'total')!;
  return row.mean_score!;
}

const average = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('a factorial run', () => {
  it('plays the four arms and keeps each one’s levels in run.json; their names name the recordings', () => {
    expect(report.agents.map((a) => a.label)).toEqual(ARMS);
    const recorded = readdirSync(join(first, 'recordings')).map((file) => recordingNameParts(file)?.agent);
    expect([...new Set(recorded)].sort()).toEqual([...ARMS].sort());
    expect(report.agents[1]!.arm).toEqual({ of: 'explorer', levels: { use_undo: false, clicks: 64 } });
    expect(report.agents[1]!.params).toMatchObject({ use_undo: false, max_clicks: 64 });
  });

  it('shows both main effects with their intervals, paired by game, agreeing with the results table', () => {
    const factorial = report.factorial as FactorialSummary;
    const [design] = factorial.designs;
    expect(design!.of).toBe('explorer');
    expect(design!.factors.map((f) => f.factor)).toEqual(['use_undo', 'clicks']);
    for (const factor of design!.factors) {
      const [reference, other] = factor.levels;
      expect(reference!.effect).toBeNull();
      expect(reference!.arms).toHaveLength(2);
      // A level's mean is its arms' mean scores averaged (every arm played every game).
      expect(reference!.mean).toBeCloseTo(average(reference!.arms.map(tableMean)), 9);
      expect(other!.mean).toBeCloseTo(average(other!.arms.map(tableMean)), 9);
      expect(other!.effect!.value).toBeCloseTo(other!.mean! - reference!.mean!, 9);
      expect(other!.effect!.games).toBe(3);
      expect(other!.effect!.pairing).toBe(PAIRED_BY_GAME);
      expect(other!.effect!.interval!.low).toBeLessThanOrEqual(other!.effect!.value);
      expect(other!.effect!.interval!.high).toBeGreaterThanOrEqual(other!.effect!.value);
    }
  });

  it('marks the arms not dominated on score and cost, and says that no cost was recorded', () => {
    const { frontier } = report.factorial as FactorialSummary;
    expect(frontier.note).toContain('No cost recorded: no agent called a model');
    const best = Math.max(...ARMS.map(tableMean));
    // At $0 each, only the best mean score is undominated.
    expect(frontier.points.filter((p) => p.on_frontier).map((p) => p.agent)).toEqual(ARMS.filter((arm) => tableMean(arm) === best));
  });

  it('records the harness card: the run’s target, budgets and concurrency, each arm’s kind, version and levels', () => {
    const card = report.harness_card!;
    expect(card.run).toMatchObject({ target: 'in-process reference service', target_kind: 'reference', concurrency: 4, 'budgets.max_actions': 60, seed: 5 });
    expect(card.agents.map((a) => a.label)).toEqual(ARMS);
    expect(card.agents[2]!.facts).toMatchObject({ agent: 'explorer', kind: 'built-in', 'factor.use_undo': true, 'factor.clicks': 0 });
    expect(card.agents[2]!.facts.version).toBe(`arcbench ${report.provenance.arcbench_version}`);
    expect(card.agents[2]!.facts.params).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('gives the report page the card, the effects and the frontier', async () => {
    await writeReport(first);
    const html = readFileSync(join(first, 'report.html'), 'utf8');
    const json = new RegExp(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)![1]!;
    const bootstrap = JSON.parse(json) as PageBootstrap;
    if (bootstrap.page !== 'report') throw new Error('expected the report page');
    expect(bootstrap.data.harness_card).toEqual(report.harness_card);
    expect(bootstrap.data.factorial).toEqual(report.factorial);
  });

  it('draws them on the page: the effects with their pairing, the frontier, the card with the facts that tell arms apart marked', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const watch = watchPage(page);
      await page.goto(pathToFileURL(join(first, 'report.html')).href);
      const factorial = await page.getByTestId('factorial').innerText();
      expect(factorial).toContain('Main effects: explorer (4 arms)');
      expect(factorial).toContain(PAIRED_BY_GAME);
      expect(factorial).toContain('No cost recorded');
      const card = page.getByTestId('harness-card');
      expect(await card.innerText()).toContain(ARMS[3]);
      // The factor rows differ between arms and are marked; the agent's name is the same for all and is not.
      expect(await card.locator('tr.differs th').allInnerTexts()).toEqual(['factor.use_undo', 'factor.clicks', 'params']);
      expect(watch.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

function compare(baseline: string, candidate: string): string {
  const result = spawnSync(process.execPath, [ARCBENCH_BIN, 'compare', baseline, candidate], { encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('compare and the harness card', () => {
  it('says what differs between the two cards before any score', () => {
    const output = compare(first, second);
    const lines = output.split('\n');
    expect(lines[0]).toBe('Harness cards differ (baseline → candidate); the scores below compare these harnesses too:');
    expect(lines[1]).toBe('  run: concurrency 4 → 2');
    // Nothing else differs: the arms are the same agents with the same params.
    expect(lines[2]).toBe('');
    expect(output.indexOf('Harness cards')).toBeLessThan(output.indexOf(ARMS[0]!));
  });

  it('says when the cards are identical', () => {
    expect(compare(first, first).split('\n')[0]).toBe('Harness cards: identical (the runs differ in nothing the cards record).');
  });

  it('finds two runs of one config against a server it starts identical, whatever port each server took', async () => {
    const config =
      'name: served\ngames: [lamp]\nbudgets: { max_actions: 5 }\nrecordings: false\ntarget: { server: { backends: 2 } }\nagents: [{ use: random }]\n';
    const runs: string[] = [];
    for (const name of ['served-a', 'served-b']) {
      writeFileSync(join(dir, `${name}.yaml`), config);
      await runExperiment(await loadExperiment(join(dir, `${name}.yaml`)), { out: join(dir, name) });
      runs.push(join(dir, name));
    }
    expect(readRunReport(runs[0]!).harness_card!.run).toMatchObject({
      target: 'arcbench server on 127.0.0.1, 2 backends',
      target_kind: 'server',
      'service.retries': DEFAULT_RETRY_POLICY.maxRetries,
    });
    expect(compare(runs[0]!, runs[1]!).split('\n')[0]).toBe('Harness cards: identical (the runs differ in nothing the cards record).');
  }, 60_000);

  it('reads a run folder written before cards were kept, and says its card is unknown', () => {
    const old = join(dir, 'old');
    cpSync(first, old, { recursive: true });
    const runJson = JSON.parse(readFileSync(join(old, 'run.json'), 'utf8')) as Record<string, unknown>;
    delete runJson.harness_card;
    writeFileSync(join(old, 'run.json'), JSON.stringify(runJson));
    expect(compare(old, first).split('\n')[0]).toBe('harness card of the baseline: unknown: this run was written by an arcbench that kept no harness card');
    const json = spawnSync(process.execPath, [ARCBENCH_BIN, 'compare', old, first, '--json'], { encoding: 'utf8' });
    expect((JSON.parse(json.stdout) as { harness_cards: { state: string } }).harness_cards.state).toBe('unknown');
    // The report of the old folder has no card to show (the page says "unknown" in words); its effects come from its episodes.
    const data = buildReportData(readRunFolderSnapshot(old), { kind: 'served', base_url: '/' });
    expect(data.harness_card).toBeNull();
    expect(data.factorial).toEqual(report.factorial);
  });
});
