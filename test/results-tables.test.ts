// The statistics users see, end to end: real in-process runs with repeats, the real run folder
// (run.json, table.md, episodes.jsonl) and report.html in Debian's chromium. Each figure is checked
// against the same figure worked out here from episodes.jsonl, not only for being present.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { sampleStandardDeviation } from 'simple-statistics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOverGames, CLUSTERING_WORDS } from '../src/analysis/gameClustered.ts';
import { intervalWithinScoreRange } from '../src/analysis/scoreSummary.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { plannedRunOf } from '../src/runner/results/plannedRun.ts';
import { renderMarkdownTable, tableRows } from '../src/runner/results/resultsTable.ts';
import { type RunResult, runExperiment } from '../src/runner/runExperiment.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { TableRow } from '../src/runfolder/runReport.ts';
import { runArcbench } from './support/arcbenchProcess.ts';
import { launchChromium, watchPage } from './support/chromium.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-tables-'));
const FLOD = 'flod-ce841f4d';
const CRAT = 'crat-a280ea19';
let run: RunResult;
let episodes: readonly EpisodeRecord[];
let browser: Browser | undefined;

function configFile(name: string, lines: string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `${[`name: ${name}`, 'agents:', '  - use: random', '  - use: explorer', 'seed: 7', 'recordings: false', ...lines].join('\n')}\n`);
  return path;
}

beforeAll(async () => {
  const experiment = await loadExperiment(configFile('repeated', ['games: [flod, crat]', 'episodes: 1', 'repeats: 3', 'budgets: { max_actions: 120 }']));
  run = await runExperiment(experiment, { out: join(dir, 'repeated') });
  episodes = readRunFolder(run.runDir).episodes;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const rowOf = (rows: readonly TableRow[], agent: string, game: string) => rows.find((r) => r.agent === agent && r.game === game)!;
const tableMd = () => readFileSync(join(run.runDir, 'table.md'), 'utf8');
const scoresOf = (agent: string, game: string) =>
  episodes
    .filter((e) => e.agent === agent && e.game_id === game)
    .sort((a, b) => a.episode - b.episode)
    .map((e) => e.score!);

describe('the results table of a run with repeats', () => {
  it("gives each total the interval clustered by game, and says so under the terminal's table and table.md", () => {
    for (const agent of ['random', 'explorer']) {
      const total = rowOf(run.report.table!, agent, 'total');
      const gameMeans = [CRAT, FLOD].map((game) => mean(scoresOf(agent, game)));
      expect(total.interval_method).toBe('cluster-bootstrap');
      expect(total.mean_score).toBeCloseTo(mean(gameMeans), 10);
      expect(total.interval).toEqual(intervalWithinScoreRange(bootstrapOverGames(gameMeans).interval));
      expect(rowOf(run.report.table!, agent, FLOD).interval_method).toBe('episode-bootstrap');
    }
    const said = `a total's is ${CLUSTERING_WORDS['cluster-bootstrap']}, each game one draw`;
    expect(run.table).toContain(said);
    expect(tableMd()).toContain(said);
  });

  it('shows the spread across repeats (mean, SD, min–max) beside the interval, worked from each repeat’s episodes', () => {
    for (const agent of ['random', 'explorer']) {
      // One episode per repeat: repeat r is episode index r; its score is the mean over the games.
      const perRepeat = [0, 1, 2].map((r) => mean([CRAT, FLOD].map((game) => scoresOf(agent, game)[r]!)));
      const spread = rowOf(run.report.table!, agent, 'total').repeat_spread!;
      expect(spread.scores.map((s) => s.toFixed(9))).toEqual(perRepeat.map((s) => s.toFixed(9)));
      expect(spread.sd).toBeCloseTo(sampleStandardDeviation(perRepeat), 9);
      expect([spread.min, spread.max]).toEqual([Math.min(...spread.scores), Math.max(...spread.scores)]);
      const cell = `${spread.mean.toFixed(2)} ± ${spread.sd!.toFixed(2)} (${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;
      expect(tableMd()).toMatch(
        new RegExp(`\\| ${agent} \\| \\*\\*total\\*\\* \\|.*\\*\\*\\[[^|]+\\]\\*\\* \\| \\*\\*${cell.replace(/[()]/g, '\\$&')}\\*\\* \\|`),
      );
    }
    expect(tableMd()).toContain('| 95% CI | repeats: mean ± SD (min–max) |');
    expect(tableMd()).toContain('over 3 repeats: how far one run can land from another');
  });

  it('says the card score is the best of the draws, with the mean beside it', () => {
    const row = rowOf(run.report.table!, 'explorer', FLOD);
    expect(row.card_score).toBeCloseTo(Math.max(...scoresOf('explorer', FLOD)), 9);
    expect(row.mean_score).toBeCloseTo(mean(scoresOf('explorer', FLOD)), 9);
    const note = "card score (and service score): per game the best of 3 episodes (the service's rule), a best draw, not what one draw gives";
    expect(run.table).toContain(note);
    expect(tableMd()).toContain(note);
  });

  it('counts how often each level was solved across repeats, and the actions each took', () => {
    for (const row of run.report.table!.filter((r) => r.game !== 'total')) {
      const mine = episodes.filter((e) => e.agent === row.agent && e.game_id === row.game);
      const reached = mine.map((e) => Math.max(0, ...e.runs.map((r) => r.completion_actions.length)));
      expect(row.level_solves).toEqual(Array.from({ length: row.level_count }, (_, level) => reached.filter((n) => n > level).length));
      // One run per episode here (no resets by these agents): level k took completion[k] − completion[k−1] actions.
      const firstLevel = mine.filter((e) => e.runs[0]!.completion_actions.length > 0).map((e) => e.runs[0]!.completion_actions[0]!);
      expect(row.level_actions![0]).toEqual(firstLevel.length === 0 ? null : mean(firstLevel));
    }
    // Level times: each episode's first completions in seconds, in order and within its wall time; the row the mean per level.
    for (const e of episodes) {
      const solved = Math.max(0, ...e.runs.map((r) => r.completion_actions.length));
      expect(e.level_seconds ?? []).toHaveLength(solved);
      expect([...(e.level_seconds ?? [])].sort((a, b) => a - b)).toEqual(e.level_seconds ?? []);
      for (const s of e.level_seconds ?? []) expect(s).toBeLessThanOrEqual(e.wall_seconds);
    }
    const flod = rowOf(run.report.table!, 'explorer', FLOD);
    const flodEpisodes = episodes.filter((e) => e.agent === 'explorer' && e.game_id === FLOD);
    const onFirst = flodEpisodes.filter((e) => (e.level_seconds?.length ?? 0) > 0).map((e) => e.level_seconds![0]!);
    expect(flod.level_seconds![0]).toBeCloseTo(mean(onFirst), 12);
    const onSecond = flodEpisodes.filter((e) => (e.level_seconds?.length ?? 0) > 1).map((e) => e.level_seconds![1]! - e.level_seconds![0]!);
    if (onSecond.length > 0) expect(flod.level_seconds![1]).toBeCloseTo(mean(onSecond), 12);
    const solves = flod.level_solves!.map((n) => `${n}/3`).join(' · ');
    expect(tableMd()).toContain('## Levels across episodes and repeats');
    expect(tableMd()).toContain(`| explorer | ${FLOD} | ${solves} |`);
  });

  it('sets actions against the summed human baseline, per game and in total', () => {
    for (const row of run.report.table!) {
      const mine = episodes.filter((e) => e.agent === row.agent && (row.game === 'total' || e.game_id === row.game));
      const human = mine.reduce((sum, e) => sum + e.baselines.reduce((a, b) => a + b, 0), 0);
      expect(row.baseline_share).toBeCloseTo(mine.reduce((sum, e) => sum + e.actions, 0) / human, 12);
      // No model called: nothing to price per level.
      expect(row.cost_per_level).toBeNull();
    }
    const total = rowOf(run.report.table!, 'random', 'total');
    expect(tableMd()).toContain(`| **${total.actions.toLocaleString('en-US')}** | **${total.baseline_share!.toFixed(2)}×** |`);
  });
});

describe('denominators from the declared plan', () => {
  it('names a repeat without a result and leaves its means unknown, never a mean of the rest', () => {
    const report = readRunFolder(run.runDir).report;
    const without = episodes.filter((e) => !(e.agent === 'explorer' && e.game_id === FLOD && e.episode === 2));
    const rows = tableRows(['random', 'explorer'], without, undefined, plannedRunOf(report));
    const flod = rowOf(rows, 'explorer', FLOD);
    expect([flod.episodes, flod.planned_episodes, flod.missing_episodes]).toEqual([2, 3, [`${FLOD} r2`]]);
    expect([flod.mean_score, flod.interval, flod.repeat_spread]).toEqual([null, null, null]);
    expect(renderMarkdownTable(rows)).toContain(`| explorer | ${FLOD} | 2 of 3 | `);
    const total = rowOf(rows, 'explorer', 'total');
    expect([total.mean_score, total.interval, total.missing_episodes]).toEqual([null, null, [`${FLOD} r2`]]);
    // The other game and the other agent keep their figures.
    expect(rowOf(rows, 'explorer', CRAT).mean_score).toBeCloseTo(mean(scoresOf('explorer', CRAT)), 10);
    expect({ ...rowOf(rows, 'random', 'total'), service_score: null }).toEqual({ ...rowOf(run.report.table!, 'random', 'total'), service_score: null });
  });

  it('in a run stopped on its wall time, names every planned episode that has no finished result', async () => {
    const experiment = await loadExperiment(
      configFile('stopped', ['games: [flod, crat]', 'episodes: 20', 'concurrency: 1', 'budgets: { max_actions: 300, run_seconds: 0.3 }']),
    );
    const stopped = await runExperiment(experiment, { out: join(dir, 'stopped') });
    expect(stopped.report.status).toBe('partial');
    const finished = new Set(
      readRunFolder(stopped.runDir)
        .episodes.filter((e) => e.cut_by_run_stop !== true)
        .map((e) => `${e.agent} ${e.game_id} e${e.episode}`),
    );
    for (const agent of ['random', 'explorer']) {
      const total = rowOf(stopped.report.table!, agent, 'total');
      const expected = [CRAT, FLOD]
        .flatMap((game) => Array.from({ length: 20 }, (_, i) => `${game} e${i}`))
        .filter((name) => !finished.has(`${agent} ${name}`));
      expect(expected.length).toBeGreaterThan(0);
      expect([...total.missing_episodes!].sort()).toEqual(expected.sort());
      expect(total.planned_episodes).toBe(40);
      expect(total.mean_score).toBeNull();
      expect(stopped.table).toContain(`${agent}: ${expected.length} of 40 planned episodes have no result: `);
      expect(readFileSync(join(stopped.runDir, 'table.md'), 'utf8')).toContain(`| ${agent} | **total** | **${40 - expected.length} of 40** |`);
    }
    expect(readFileSync(join(stopped.runDir, 'table.md'), 'utf8')).toContain('their means are unknown, not means of the rest');
    // junit.xml gives the same reason for a game's unknown mean, not the baselines'.
    const flod = rowOf(stopped.report.table!, 'random', FLOD);
    const junit = readFileSync(join(stopped.runDir, 'junit.xml'), 'utf8');
    expect(junit).toContain(`scores unknown (${flod.missing_episodes!.length} of 20 planned episodes have no result: ${flod.missing_episodes![0]}`);
  }, 120_000);
});

describe('the results exports', () => {
  it('export --format csv gives every row with its interval method, best-of count and spread; --format results the rows and the notes', async () => {
    const csv = await runArcbench(['export', run.runDir, '--format', 'csv'], dir);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...lines] = csv.stdout
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(lines).toHaveLength(run.report.table!.length);
    const column = (line: string[], name: string) => line[head!.indexOf(name)];
    for (const [i, row] of run.report.table!.entries()) {
      const line = lines[i]!;
      expect([column(line, 'agent'), column(line, 'game')]).toEqual([row.agent, row.game]);
      expect(Number(column(line, 'mean_score'))).toBe(row.mean_score);
      expect(Number(column(line, 'ci95_low'))).toBe(row.interval!.low);
      expect(Number(column(line, 'repeat_sd'))).toBe(row.repeat_spread!.sd);
      expect(Number(column(line, 'human_baseline_share'))).toBe(row.baseline_share);
      expect(column(line, 'card_score_is_best_of')).toBe(row.game === 'total' ? '' : '3');
      expect(column(line, 'ci95_method')).toBe(row.game === 'total' ? CLUSTERING_WORDS['cluster-bootstrap'] : 'bootstrap over the episodes of the game');
    }
    const json = await runArcbench(['export', run.runDir, '--format', 'results'], dir);
    const document = JSON.parse(json.stdout) as { rows: TableRow[]; notes: string[] };
    expect(document.rows).toEqual(run.report.table);
    expect(document.notes).toEqual(expect.arrayContaining([expect.stringContaining('best of 3 episodes'), expect.stringContaining('over 3 repeats')]));
  });
});

describe('report.html', () => {
  it('shows the spread column, the notes under the table, the levels section and the level-solve curve', async () => {
    await writeReport(run.runDir);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = watchPage(page);
    await page.goto(pathToFileURL(join(run.runDir, 'report.html')).href);
    const total = rowOf(run.report.table!, 'explorer', 'total');
    const cells = await page.locator('[data-testid=results] tr[data-agent="explorer"][data-game="total"] td').allInnerTexts();
    const { mean: m, sd, min, max } = total.repeat_spread!;
    expect(cells).toContain(`${m.toFixed(2)} ± ${sd!.toFixed(2)} (${min.toFixed(2)}–${max.toFixed(2)})`);
    expect(cells).toContain(`${total.baseline_share!.toFixed(2)}×`);
    const notes = await page.locator('[data-testid=results-note]').allInnerTexts();
    expect(notes).toEqual(
      expect.arrayContaining([expect.stringContaining(CLUSTERING_WORDS['cluster-bootstrap']), expect.stringContaining('best of 3 episodes')]),
    );
    const flod = rowOf(run.report.table!, 'explorer', FLOD);
    const levelCells = await page.locator(`[data-testid=level-consistency] tr[data-agent="explorer"][data-game="${FLOD}"] td`).allInnerTexts();
    expect(levelCells[2]).toBe(flod.level_solves!.map((n) => `${n}/3`).join(' · '));
    // The curve climbs to the levels the explorer completed over its episodes.
    const solved = episodes.filter((e) => e.agent === 'explorer').reduce((sum, e) => sum + Math.max(0, ...e.runs.map((r) => r.completion_actions.length)), 0);
    expect(await page.locator('[data-testid=solve-curve] polyline[data-agent="explorer"] title').textContent()).toBe(
      `explorer: ${solved} of ${6 * 2 * 3} levels completed`,
    );
    // Beside each card score (a best draw), the agent's mean episode score.
    const means = await page.locator('[data-testid=agent-mean]').allInnerTexts();
    expect(means).toEqual(['random', 'explorer'].map((agent) => rowOf(run.report.table!, agent, 'total').mean_score!.toFixed(2)));
    expect(watch.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
