// report.html in real headless Chromium, opened from disk: a real run (in-process, recordings on), its
// page written by the report writer, then read, clicked and played as a user would.
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { serviceWithoutBaselines } from './support/serviceWithoutBaselines.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { PALETTE_RGB } from '../src/protocol/index.ts';
import { actionLabel } from '../src/report/page/actionLabel.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { readRecording, type RecordingEntry } from '../src/recording/recordingReader.ts';
import { runExperiment, type RunResult } from '../src/runner/runExperiment.ts';
import { gridCellColour, gridImage, launchChromium, watchPage } from './support/chromium.ts';
import { itemAt } from './support/lists.ts';

const EXPERIMENT = `
name: report-page
games: [flod, slid, crat]
agents:
  - use: random
  - use: explorer
episodes: 2
seed: 3
budgets: { max_actions: 120 }
`;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let dir: string;
let run: RunResult;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-report-page-'));
  writeFileSync(join(dir, 'exp.yaml'), EXPERIMENT);
  run = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'run') });
  await writeReport(run.runDir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openReport(path = join(run.runDir, 'report.html')) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const watch = watchPage(page);
  await page.goto(pathToFileURL(path).href);
  await page.locator('[data-testid=step-counter]').waitFor();
  return { page, watch };
}

async function entriesOf(episode: EpisodeRecord): Promise<RecordingEntry[]> {
  const entries: RecordingEntry[] = [];
  for await (const entry of readRecording(join(run.runDir, episode.recording!))) entries.push(entry);
  return entries;
}

/** A game as the page names it: title and id. */
const gameName = (id: string) => `${gameCatalog().find((game) => game.info.id === id)!.info.title} (${id})`;

const text = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).innerText();

async function replay(page: Page, episode: EpisodeRecord): Promise<void> {
  const row = page.locator(`tr[data-agent="${episode.agent}"][data-game="${episode.game_id}"][data-episode="${episode.episode}"]`);
  await row.getByRole('button', { name: 'replay' }).click();
  await expect.poll(() => page.locator('.replay-title').innerText()).toContain(`${episode.agent} · ${gameName(episode.game_id)} · episode ${episode.episode}`);
}

describe('report.html opened from disk in Chromium', () => {
  it('loads with no console error and no request but the file itself', async () => {
    const { page, watch } = await openReport();
    await page.waitForTimeout(300);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([pathToFileURL(join(run.runDir, 'report.html')).href]);
    await expect.poll(() => text(page, 'run-name')).toContain('report-page');
    expect(await text(page, 'run-status')).toBe('completed');
    await page.close();
  });

  it('lists every agent and game in the results table, with a chart per game', async () => {
    const { page } = await openReport();
    for (const agent of run.report.agents) {
      for (const game of run.report.games) {
        const row = page.locator(`[data-testid=results] tr[data-agent="${agent.label}"][data-game="${game}"]`);
        await expect.poll(() => row.count()).toBe(1);
      }
      expect(await page.locator(`[data-testid=results] tr[data-agent="${agent.label}"][data-game="total"]`).count()).toBe(1);
    }
    for (const game of run.report.games) {
      expect(await page.locator(`figure.chart[data-game="${game}"] g[data-agent]`).count()).toBe(run.report.agents.length);
    }
    await page.close();
  });

  it('steps through a recording: the canvas changes, and step, action, state and levels match the recording', async () => {
    const { page } = await openReport();
    const episode = run.episodes.find((e) => e.game_id.startsWith('flod') && e.agent === 'explorer')!;
    const entries = await entriesOf(episode);
    await replay(page, episode);
    const last = entries.length - 1;
    // A step whose last grid differs from the step before it.
    const lastGrid = (i: number) => JSON.stringify(itemAt(entries, i, 'recording line').data.frame.at(-1));
    const changed = entries.findIndex((_, i) => i > 1 && lastGrid(i) !== lastGrid(i - 1));
    expect(changed).toBeGreaterThan(1);

    await page.locator('[data-testid=scrubber]').fill(String(changed - 1));
    const before = await gridImage(page);
    await page.keyboard.press('ArrowRight');
    expect(await gridImage(page)).not.toBe(before);

    for (const step of [0, changed, Math.floor(last / 2), last]) {
      await page.locator('[data-testid=scrubber]').fill(String(step));
      const data = itemAt(entries, step, 'recording line').data;
      expect(await text(page, 'step-counter')).toBe(`${step} of ${last}`);
      expect(await text(page, 'action')).toBe(actionLabel({ id: data.action_input.id, x: data.action_input.data?.x, y: data.action_input.data?.y }));
      expect(await text(page, 'state')).toBe(data.state);
      expect(await text(page, 'levels')).toBe(`${data.levels_completed} of ${data.win_levels}`);
      expect(await text(page, 'grid-counter')).toBe(`${data.frame.length} of ${data.frame.length}`);
      // Cells far from the click marker are drawn in the palette of docs/protocol.md §1.
      const grid = data.frame.at(-1)!;
      const click = data.action_input.data;
      for (const [x, y] of [
        [1, 1],
        [32, 40],
        [60, 20],
        [10, 62],
      ] as const) {
        if (click?.x !== undefined && Math.abs(click.x - x) < 5 && Math.abs(click.y! - y) < 5) continue;
        const colour = itemAt(itemAt(grid, y, 'grid row'), x, 'cell');
        expect(await gridCellColour(page, x, y)).toEqual(PALETTE_RGB[colour]);
      }
    }
    await page.close();
  });

  it('shows every grid of a step with several (a level transition), and marks the level change', async () => {
    const { page } = await openReport();
    const episode = run.episodes.find((e) => e.levels_completed > 0)!;
    const entries = await entriesOf(episode);
    const transition = entries.findIndex((entry, i) => i > 0 && entry.data.levels_completed > itemAt(entries, i - 1).data.levels_completed);
    const completed = itemAt(entries, transition, 'line that completes a level').data;
    const grids = completed.frame.length;
    expect(grids).toBeGreaterThan(1);
    await replay(page, episode);
    await page.locator('[data-testid=scrubber]').fill(String(transition));
    expect(await text(page, 'event')).toContain(`level ${completed.levels_completed + 1} reached`);
    expect(await text(page, 'grid-counter')).toBe(`${grids} of ${grids}`);
    const lastLook = await gridImage(page);
    await page.keyboard.press(',');
    expect(await text(page, 'grid-counter')).toBe(`${grids - 1} of ${grids}`);
    expect(await gridImage(page)).not.toBe(lastLook);
    expect(await page.locator('.scrub-marks .mark-level, .scrub-marks .mark-win').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('plays at the game frame rate and pauses', async () => {
    const { page } = await openReport();
    const episode = run.episodes.find((e) => e.agent === 'random' && e.game_id.startsWith('slid'))!;
    await replay(page, episode);
    expect(await text(page, 'step-counter')).toMatch(/^0 of /);
    await page.keyboard.press('Space');
    await expect.poll(() => text(page, 'play')).toContain('pause');
    await expect.poll(async () => Number((await text(page, 'step-counter')).split(' ')[0]), { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    await page.getByTestId('play').click();
    const paused = await text(page, 'step-counter');
    await page.waitForTimeout(600);
    expect(await text(page, 'step-counter')).toBe(paused);
    await page.close();
  });

  it('filters the episodes by agent, game and outcome, and sorts them by score', async () => {
    const { page } = await openReport();
    const rows = page.locator('[data-testid=episodes] tbody tr');
    expect(await rows.count()).toBe(run.episodes.length);
    await page.getByTestId('filter-agent').selectOption('explorer');
    await page.getByTestId('filter-game').selectOption(run.episodes.find((e) => e.game_id.startsWith('flod'))!.game_id);
    const expected = run.episodes.filter((e) => e.agent === 'explorer' && e.game_id.startsWith('flod'));
    expect(await rows.count()).toBe(expected.length);
    await page.getByTestId('filter-agent').selectOption('');
    await page.getByTestId('filter-game').selectOption('');
    await page.getByTestId('filter-outcome').selectOption('budget');
    expect(await rows.count()).toBe(run.episodes.filter((e) => e.outcome === 'budget').length);
    expect(await text(page, 'episode-count')).toBe(`${run.episodes.filter((e) => e.outcome === 'budget').length} of ${run.episodes.length} episodes`);
    await page.getByTestId('filter-outcome').selectOption('');
    await page.locator('th[data-sort=score] button').click();
    await page.locator('th[data-sort=score] button').click();
    const scores = (await page.locator('[data-testid=episodes] tbody tr td:nth-child(5)').allInnerTexts()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await page.close();
  });

  it("shows run.json's table with its intervals, and the same rows computed for a run.json without a table", async () => {
    const table = run.report.table!;
    const shown = (interval: { low: number; high: number } | null) => (interval === null ? 'n/a' : `${interval.low.toFixed(2)} – ${interval.high.toFixed(2)}`);
    const runJson = JSON.parse(readFileSync(join(run.runDir, 'run.json'), 'utf8'));
    const older = join(dir, 'older');
    cpSync(run.runDir, older, { recursive: true });
    delete runJson.table;
    writeFileSync(join(older, 'run.json'), JSON.stringify(runJson));
    await writeReport(older);
    for (const path of [join(run.runDir, 'report.html'), join(older, 'report.html')]) {
      const { page, watch } = await openReport(path);
      for (const row of table) {
        const cells = await page.locator(`[data-testid=results] tr[data-agent="${row.agent}"][data-game="${row.game}"] td`).allInnerTexts();
        expect(cells).toEqual([
          row.agent,
          row.game === 'total' ? row.game : gameName(row.game),
          String(row.episodes),
          row.card_score!.toFixed(2),
          row.service_score!.toFixed(2),
          row.mean_score!.toFixed(2),
          shown(row.interval),
          `${row.levels_completed}/${row.level_count}`,
          row.actions.toLocaleString('en-US'),
          `${row.baseline_share!.toFixed(2)}×`,
          String(row.wins),
          String(row.errors),
        ]);
      }
      for (const game of run.report.games) {
        const withInterval = table.filter((row) => row.game === game && row.interval !== null).length;
        expect(await page.locator(`figure.chart[data-game="${game}"] .whisker`).count()).toBe(withInterval);
      }
      expect(watch.errors).toEqual([]);
      await page.close();
    }
  });

  it('embeds the best and worst episode per agent and game when the rest does not fit, and says how to see the rest', async () => {
    const small = join(dir, 'small.html');
    const written = await writeReport(run.runDir, { out: small, budgetBytes: 1 });
    expect(written.recordings).toBe(run.episodes.length);
    // 2 agents × 3 games, 2 episodes each: best and worst are both of them, so all are embedded.
    expect(written.embedded).toBe(written.recordings);

    const many = join(dir, 'many');
    writeFileSync(
      join(dir, 'many.yaml'),
      EXPERIMENT.replace('name: report-page', 'name: many').replace('episodes: 2', 'episodes: 4').replace('max_actions: 120', 'max_actions: 20'),
    );
    const bigger = await runExperiment(await loadExperiment(join(dir, 'many.yaml')), { out: many });
    const partial = await writeReport(bigger.runDir, { out: small, budgetBytes: 1 });
    expect(partial.recordings).toBe(24);
    expect(partial.embedded).toBeLessThanOrEqual(12);
    expect(partial.embedded).toBeGreaterThanOrEqual(6);

    const { page, watch } = await openReport(small);
    expect(await text(page, 'recordings-note')).toContain(`${partial.embedded} of 24 recordings are embedded`);
    // The folder as the report names it: relative to the experiment's folder, never a machine's own path.
    expect(await text(page, 'recordings-note')).toContain(`arcbench view ${relative(dir, bigger.runDir)}`);
    const disabled = page.locator('[data-testid=episodes] button.replay-button:disabled');
    expect(await disabled.count()).toBe(24 - partial.embedded);
    expect(await disabled.first().getAttribute('title')).toContain('arcbench view');
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it('arcbench compare --html writes the comparison as a page: every row with its verdict, a chart per agent', async () => {
    writeFileSync(join(dir, 'other.yaml'), EXPERIMENT.replace('name: report-page', 'name: other').replace('seed: 3', 'seed: 4'));
    const other = await runExperiment(await loadExperiment(join(dir, 'other.yaml')), { out: join(dir, 'other') });
    const page = join(dir, 'comparison.html');
    const { stdout } = await promisify(execFile)(process.execPath, [ARCBENCH_BIN, 'compare', run.runDir, other.runDir, '--json', '--html', page], {
      cwd: ROOT,
    });
    const document = JSON.parse(stdout) as { rows: Array<{ agent: string; game: string; verdict: string }> };
    expect(document.rows.length).toBe(2 * 4);
    const browserPage = await browser.newPage();
    const watch = watchPage(browserPage);
    await browserPage.goto(pathToFileURL(page).href);
    await browserPage.getByTestId('comparison').waitFor();
    for (const row of document.rows) {
      const cells = await browserPage.locator(`[data-testid=comparison] tr[data-agent="${row.agent}"][data-game="${row.game}"] td`).allInnerTexts();
      expect(cells.at(-1)).toContain(row.verdict);
    }
    expect(await browserPage.locator('figure.chart[data-agent]').count()).toBe(2);
    // The harness cards first: the two runs differ in their seed.
    const cards = await browserPage.getByTestId('harness-cards').innerText();
    expect(cards).toContain('Harness cards differ (baseline → candidate)');
    expect(cards).toMatch(/run: seed 3 → 4/);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([pathToFileURL(page).href]);
    await browserPage.close();
  });

  // The picture is for people to look at: ARCBENCH_SCREENSHOT=<file> keeps a copy there.
  it('takes a screenshot of the viewer', async () => {
    const { page } = await openReport();
    const episode = run.episodes.find((e) => e.game_id.startsWith('flod') && e.agent === 'explorer')!;
    const entries = await entriesOf(episode);
    await replay(page, episode);
    const click = entries.findIndex((entry) => entry.data.action_input.id === 6);
    await page.locator('[data-testid=scrubber]').fill(String(click));
    const path = join(dir, 'viewer.png');
    await page.getByTestId('viewer').screenshot({ path });
    expect(statSync(path).size).toBeGreaterThan(10_000);
    expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    if (process.env.ARCBENCH_SCREENSHOT) copyFileSync(path, process.env.ARCBENCH_SCREENSHOT);
    await page.close();
  });
});

describe('report.html of a run whose scores are unknown', () => {
  it('shows "unknown" with the reason once, and no bar, where the service gave no baselines; the service’s score beside it', async () => {
    // The games carry no baselines, the open competition card cannot be read, and no card has them.
    const service = await serviceWithoutBaselines();
    onTestFinished(() => service.close());
    writeFileSync(
      join(dir, 'unknown.yaml'),
      `name: unknown\ngames: [crat]\nagents: [{ use: random }]\nbudgets: { max_actions: 5 }\nrecordings: false\n${service.target}scorecard: { competition_mode: true }\n`,
    );
    const unknown = await runExperiment(await loadExperiment(join(dir, 'unknown.yaml')), { out: join(dir, 'unknown') });
    await writeReport(unknown.runDir);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = watchPage(page);
    await page.goto(pathToFileURL(join(unknown.runDir, 'report.html')).href);
    const row = page.locator('[data-testid=results] tr[data-agent="random"][data-game="total"] td');
    await row.first().waitFor();
    const cells = await row.allInnerTexts();
    // agent, game, episodes, card score, service score, mean score, …
    expect(cells.slice(3, 6)).toEqual(['unknown', '0.00', 'unknown']);
    expect(await page.locator('[data-testid=unknown-scores]').innerText()).toMatch(/no level baselines/);
    expect(await page.locator('figure.chart rect').count()).toBe(0);
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});
