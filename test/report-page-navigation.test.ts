// report.html in real headless Chromium, for what a reader finds their way by: the provenance of a run
// in a git repository, a URL for every episode and step, games by title, one scale for the charts, a
// click marked at the grid's edge, and a run cut by its stop (as Ctrl-C does) and resumed; and the
// comparison page's word on a row worse within the threshold.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../src/analysis/compareRuns.ts';
import { comparisonDocument } from '../src/analysis/gate.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { PLAYED_AGAIN } from '../src/report/pageData.ts';
import { writeComparisonPage } from '../src/report/writeComparisonPage.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { readRecording } from '../src/recording/recordingReader.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runExperiment, type RunResult } from '../src/runner/runExperiment.ts';
import { launchChromium, watchPage } from './support/chromium.ts';
import { firstOf } from './support/lists.ts';

/** Clicks the grid's edges and corners, then stops: every click marker of its recording is at an edge. */
const EDGE_CLICKER = `import { defineAgent, click, stop } from 'arcbench';
const CELLS = [[0, 63], [63, 0], [0, 0], [63, 63], [0, 30], [30, 63]];
export default defineAgent({
  name: 'edge-clicker',
  create() {
    let next = 0;
    return { act: () => (next < CELLS.length ? click(CELLS[next]![0]!, CELLS[next++]![1]!) : stop('every edge clicked')) };
  },
});
`;

const EXPERIMENT = `name: navigation
games: [flod, slid]
agents:
  - use: random
  - use: ./edge-clicker.ts
episodes: 2
seed: 5
budgets: { max_actions: 40 }
`;

let dir: string;
let run: RunResult;
let sha: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-report-navigation-'));
  writeFileSync(join(dir, 'exp.yaml'), EXPERIMENT);
  writeFileSync(join(dir, 'edge-clicker.ts'), EDGE_CLICKER);
  // The experiment's folder is a repository of its own, as a user's is.
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'experiment');
  sha = git('rev-parse', 'HEAD');
  run = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'run') });
  await writeReport(run.runDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openReport(fragment = '', path = join(run.runDir, 'report.html')) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watch = watchPage(page);
  await page.goto(pathToFileURL(path).href + fragment);
  await page.locator('[data-testid=step-counter]').waitFor();
  return { page, watch };
}

const text = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).innerText();

/** Whether the viewer's top is within the window (the page scrolled to it). */
const viewerInSight = (page: Page): Promise<boolean> =>
  page.evaluate(
    `(() => { const top = document.querySelector('[data-testid=viewer]').getBoundingClientRect().top; return top >= 0 && top < window.innerHeight; })()`,
  );

/** The canvas pixel at (px, py), as [r, g, b]. */
const pixel = (page: Page, px: number, py: number): Promise<number[]> =>
  page.evaluate(`[...document.querySelector('[data-testid=grid]').getContext('2d').getImageData(${px}, ${py}, 1, 1).data.slice(0, 3)]`);

const key = (e: EpisodeRecord) => `${e.agent}/${e.game_id}/${e.episode}`;

describe("report.html: finding one's way", () => {
  it('shows the git commit of the experiment folder, from the field run.json writes', async () => {
    expect(run.report.provenance.experiment_git.sha).toBe(sha);
    const { page, watch } = await openReport();
    const provenance = await text(page, 'provenance');
    expect(provenance).toMatch(new RegExp(`git\\s+${sha.slice(0, 12)}`));
    expect(provenance).not.toContain('not a git checkout');
    // The episode the page opened on by itself leaves the address alone.
    expect(new URL(page.url()).hash).toBe('');
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it('gives every episode a link, and a link opens the viewer at its episode and step, scrolled into sight', async () => {
    const { page, watch } = await openReport();
    for (const episode of run.episodes) {
      const row = page.locator(`[data-testid=episodes] tr[data-agent="${episode.agent}"][data-game="${episode.game_id}"][data-episode="${episode.episode}"]`);
      expect(await row.locator('a.episode-link').getAttribute('href')).toBe(`#episode=${key(episode)}`);
    }
    await page.close();

    const episode = run.episodes.find((e) => e.agent === 'random' && e.actions > 10)!;
    const opened = await openReport(`#episode=${key(episode)}&step=7`);
    await expect.poll(() => opened.page.locator('.replay-title').innerText()).toContain(`random · `);
    expect(await opened.page.locator('.replay-title').innerText()).toContain(`${episode.game_id}) · episode ${episode.episode}`);
    expect(await text(opened.page, 'step-counter')).toMatch(/^7 of /);
    expect(await viewerInSight(opened.page)).toBe(true);
    // Every step has its URL: the address bar and the step link follow the viewer.
    await opened.page.keyboard.press('ArrowRight');
    expect(await text(opened.page, 'step-counter')).toMatch(/^8 of /);
    expect(new URL(opened.page.url()).hash).toBe(`#episode=${key(episode)}&step=8`);
    expect(await opened.page.getByTestId('step-link').getAttribute('href')).toBe(`#episode=${key(episode)}&step=8`);
    expect(opened.watch.errors).toEqual([]);
    expect(watch.errors).toEqual([]);
    await opened.page.close();
  });

  it('scrolls to the viewer when an episode is chosen, from its link or its replay button', async () => {
    const { page } = await openReport();
    const [first, second] = run.episodes.filter((e) => e.agent === 'random');
    await page.evaluate('window.scrollTo(0, 0)');
    await page
      .locator(`[data-testid=episodes] tr[data-game="${first!.game_id}"][data-episode="${first!.episode}"][data-agent="random"] button.replay-button`)
      .click();
    await expect.poll(() => viewerInSight(page)).toBe(true);
    await page.evaluate('window.scrollTo(0, 0)');
    await page
      .locator(`[data-testid=episodes] tr[data-game="${second!.game_id}"][data-episode="${second!.episode}"][data-agent="random"] a.episode-link`)
      .click();
    await expect.poll(() => page.locator('.replay-title').innerText()).toContain(`episode ${second!.episode}`);
    await expect.poll(() => viewerInSight(page)).toBe(true);
    expect(await text(page, 'step-counter')).toMatch(/^0 of /);
    await page.close();
  });

  it('names games by title and id; the charts share one scale and say so', async () => {
    const { page } = await openReport();
    for (const gameId of run.report.games) {
      const title = gameCatalog().find((game) => game.info.id === gameId)!.info.title;
      const cells = await page.locator(`[data-testid=results] tr[data-game="${gameId}"] td:nth-child(2)`).allInnerTexts();
      expect(cells.length).toBeGreaterThan(0);
      for (const cell of cells) expect(cell).toBe(`${title} (${gameId})`);
      expect(await page.locator(`figure.chart[data-game="${gameId}"] figcaption`).innerText()).toBe(`${title} (${gameId})`);
    }
    const axisEnds = await page
      .locator('figure.chart[data-game]')
      .evaluateAll((figures) => figures.map((figure) => [...figure.querySelectorAll('text.tick')].at(-1)?.textContent));
    expect(axisEnds.length).toBe(run.report.games.length);
    expect(new Set(axisEnds).size).toBe(1);
    expect(await text(page, 'charts-note')).toContain(`Every chart has the same scale, 0 to ${axisEnds[0]}.`);
    await page.close();
  });

  it("marks a click at the grid's edge and corners inside the clicked cell", async () => {
    const episode = run.episodes.find((e) => e.agent === 'edge-clicker' && e.game_id.startsWith('flod'))!;
    const clicks: Array<{ step: number; x: number; y: number }> = [];
    let step = 0;
    for await (const entry of readRecording(join(run.runDir, episode.recording!))) {
      const data = entry.data.action_input.data;
      if (entry.data.action_input.id === 6 && data?.x !== undefined && data.y !== undefined) clicks.push({ step, x: data.x, y: data.y });
      step++;
    }
    expect(clicks.length).toBeGreaterThanOrEqual(4);
    const { page } = await openReport(`#episode=${key(episode)}&step=0`);
    for (const click of clicks) {
      await page.locator('[data-testid=scrubber]').fill(String(click.step));
      // The cell's rim white and its middle black, whatever colour the cell is.
      expect(await pixel(page, click.x * 8, click.y * 8)).toEqual([255, 255, 255]);
      expect(await pixel(page, click.x * 8 + 7, click.y * 8 + 7)).toEqual([255, 255, 255]);
      expect(await pixel(page, click.x * 8 + 4, click.y * 8 + 4)).toEqual([0, 0, 0]);
    }
    await page.close();
  });
});

describe('report.html of a run cut by its stop and resumed', () => {
  it('shows the cut episodes as cut and played again, none as in progress', async () => {
    const folder = join(dir, 'cut');
    writeFileSync(
      join(dir, 'cut.yaml'),
      'name: cut\ngames: [flod, slid]\nagents: [{ use: random }]\nepisodes: 2\nseed: 8\nconcurrency: 2\nbudgets: { max_actions: 400 }\n',
    );
    const experiment = await loadExperiment(join(dir, 'cut.yaml'));
    // Stopped as Ctrl-C stops it, while two episodes are being played.
    const interrupt = new AbortController();
    const progress = { update: (s: { actions: number }) => (s.actions >= 30 ? interrupt.abort() : undefined), stop: () => {} };
    const cut = await runExperiment(experiment, { out: folder, signal: interrupt.signal, progress: progress as never });
    expect(cut.report.status).toBe('interrupted');
    expect(cut.report.totals.cut_episodes).toBeGreaterThan(0);
    const resumed = await runExperiment(await loadExperiment(join(dir, 'cut.yaml')), { resume: { runDir: folder, retryErrors: false } });
    expect(resumed.report.status).toBe('completed');
    const superseded = readRunFolder(folder).records.filter((r) => r.superseded);
    expect(superseded.length).toBeGreaterThan(0);
    await writeReport(folder);

    const { page, watch } = await openReport('', join(folder, 'report.html'));
    const outcomes = await page.locator('[data-testid=episodes] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome')));
    expect(outcomes.filter((o) => o === 'in progress')).toEqual([]);
    expect(outcomes.filter((o) => o === PLAYED_AGAIN)).toHaveLength(superseded.length);
    expect(outcomes.length).toBe(resumed.episodes.length + superseded.length);
    // The header counts the episodes that count.
    expect(await page.locator('.facts').innerText()).toContain(`${resumed.report.totals.episodes} episodes`);
    const old = firstOf(superseded, 'superseded record');
    await page.goto(`${pathToFileURL(join(folder, 'report.html')).href}#episode=${key(old)}/attempt-${old.attempt}`);
    await expect.poll(() => text(page, 'replay-status')).toContain('a resume played it again');
    expect(await page.locator('body').innerText()).not.toContain('still being played');
    expect(watch.errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('compare --html under a threshold', () => {
  it('says of a row worse within the threshold that it is no regression, and why', async () => {
    const scores = [12, 30, 0, 45, 8, 22, 17, 3];
    const episodes = (shift: number) =>
      scores.map((score, episode) => ({ agent: 'explorer', game: 'crat-1', episode, seed: 1000 + episode, score: score + shift }));
    const comparison = compareRuns(
      { name: 'base', agents: ['explorer'], episodes: episodes(0) },
      { name: 'cand', agents: ['explorer'], episodes: episodes(-5) },
      { threshold: 10 },
    );
    const path = join(dir, 'within.html');
    await writeComparisonPage(comparisonDocument(comparison, { failOnRegression: true }), path);
    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(pathToFileURL(path).href);
    const verdict = page.locator('[data-testid=comparison] tr[data-agent="explorer"][data-game="total"] td:last-child span');
    expect(await verdict.innerText()).toBe('worse (within the threshold: no regression)');
    expect(await verdict.getAttribute('title')).toBe('the interval does not lie wholly below −10 points, the threshold');
    expect(await page.getByTestId('gate').innerText()).toBe('gate passed: no regression');
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it('a regression the gate was not asked to fail on is in a warning badge, not a green one', async () => {
    const scores = [12, 30, 0, 45, 8, 22, 17, 3];
    const episodes = (shift: number) =>
      scores.map((score, episode) => ({ agent: 'explorer', game: 'crat-1', episode, seed: 1000 + episode, score: score + shift }));
    const comparison = compareRuns(
      { name: 'base', agents: ['explorer'], episodes: episodes(0) },
      { name: 'cand', agents: ['explorer'], episodes: episodes(-5) },
    );
    const path = join(dir, 'ungated.html');
    await writeComparisonPage(comparisonDocument(comparison, { failOnRegression: false }), path);
    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(pathToFileURL(path).href);
    const gate = page.getByTestId('gate');
    expect(await gate.innerText()).toBe('2 regression(s); the gate was not asked for');
    expect(await gate.getAttribute('class')).toBe('badge status-partial');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('[data-testid=gate]')).backgroundColor`)).toBe('rgb(255, 243, 223)');
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});
