// The cost of an llm run everywhere it is read: report.html in real headless Chromium (tokens and
// dollars per agent, game and episode, dollars per level, the score-against-cost chart), the tables,
// junit.xml and the GitHub step summary; and `compare`'s change in dollars and tokens.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComparisonMarkdown } from '../src/analysis/comparisonTable.ts';
import { compareRuns } from '../src/analysis/compareRuns.ts';
import { oneAgentAs } from '../src/analysis/episodeSample.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { runEpisodesOfFolder } from '../src/analysis/runEpisodes.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { launchChromium, watchPage } from './support/chromium.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { runLlmExperiment, SECRET_KEY, TempFolder, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
let folder: TempFolder;
let browser: Browser;
let run: Awaited<ReturnType<typeof runLlmExperiment>>;

/** Every call: 12,000 input tokens (2,000 cached), 300 output (100 reasoning). */
const USAGE = { prompt_tokens: 12_000, completion_tokens: 300, cached_tokens: 2_000, reasoning_tokens: 100 };
const params = (pricing: Record<string, number>) => ({ model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing });
const CHEAP = { input: 1, output: 4 };
const DEAR = { input: 10, cached_input: 5, output: 40 };
const callCost = (p: { input: number; cached_input?: number; output: number }) =>
  ((USAGE.prompt_tokens - USAGE.cached_tokens) * p.input + USAGE.cached_tokens * (p.cached_input ?? p.input) + USAGE.completion_tokens * p.output) / 1e6;

beforeAll(async () => {
  folder = new TempFolder();
  fake.server.setFallback((_, index) => ({ toolCalls: [toolCall(index % 3 === 0 ? 'ACTION2' : 'ACTION1', { rationale: 'go' })], usage: USAGE }));
  run = await runLlmExperiment(
    folder,
    {
      name: 'costs',
      games: ['crat'],
      episodes: 2,
      params: {},
      agents: [
        { use: 'llm', label: 'cheap', params: params(CHEAP) },
        { use: 'llm', label: 'dear', params: params(DEAR) },
      ],
      budgets: { max_actions: 5 },
    },
    { stepSummary: join(folder.path, 'step-summary.md') },
  );
  await writeReport(run.out);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  folder?.remove();
});

describe('cost in report.html', () => {
  it('shows tokens and dollars per agent and game, dollars per level, per episode, and draws score against cost', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = watchPage(page);
    await page.goto(pathToFileURL(join(run.out, 'report.html')).href);
    const table = page.locator('[data-testid=cost-table]');
    await table.waitFor();
    const cheapTotal = table.locator('tr[data-agent=cheap][data-game=total]');
    const cells = await cheapTotal.locator('td').allInnerTexts();
    // 2 episodes × 5 calls: 120,000 input, 20,000 cached, 3,000 output, 1,000 reasoning.
    expect(cells.slice(2, 7)).toEqual(['10', '120,000', '20,000', '3,000', '1,000']);
    expect(cells[7]).toBe(`$${(10 * callCost(CHEAP)).toFixed(4)}`);
    const levels = run.runJson.table.find((row: { agent: string; game: string }) => row.agent === 'cheap' && row.game === 'total').levels_completed;
    expect(cells[8]).toBe(levels > 0 ? `$${((10 * callCost(CHEAP)) / levels).toFixed(4)}` : '–');
    const dearCells = await table.locator('tr[data-agent=dear][data-game=total] td').allInnerTexts();
    expect(dearCells[7]).toBe(`$${(10 * callCost(DEAR)).toFixed(4)}`);

    const chart = page.locator('[data-testid=score-cost-chart]');
    await expect.poll(() => chart.locator('circle').count()).toBe(2);
    const [cheapX, dearX] = await Promise.all(['cheap', 'dear'].map((agent) => chart.locator(`g[data-agent=${agent}] circle`).getAttribute('cx')));
    expect(Number(dearX)).toBeGreaterThan(Number(cheapX));
    expect(await chart.locator('g[data-agent=cheap] circle').isVisible()).toBe(true);
    // The dear agent's $1.22 puts the axis at $2: its ticks say so without a table's four decimals.
    expect(await chart.locator('text[data-axis=cost]').allTextContents()).toEqual(['$0', '$1', '$2']);

    const episodeRow = page.locator('tr[data-agent=dear][data-game^=crat][data-episode="0"]');
    expect(await episodeRow.innerText()).toContain(`$${(5 * callCost(DEAR)).toFixed(4)}`);
    expect(await episodeRow.innerText()).toContain('61,500');
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});

describe('cost in the files and the comparison', () => {
  it('table.md has the cached column with thousands separators; junit.xml, the step summary and compare carry dollars and tokens', () => {
    expect(run.tableMarkdown).toContain('| input tokens | cached tokens | output tokens | cost $ | $ per level |');
    // Dollars per level solved: each row's dollars over the levels its episodes completed, none where none was.
    const folderRead = readRunFolder(run.out);
    for (const row of folderRead.report.table!) {
      const mine = folderRead.episodes.filter((e) => e.agent === row.agent && (row.game === 'total' || e.game_id === row.game));
      const levels = mine.reduce((sum, e) => sum + e.levels_completed, 0);
      expect(row.cost_per_level).toBe(levels === 0 ? null : row.usage.cost_usd! / levels);
    }
    expect(run.tableMarkdown).toContain('| cheap | **total** |');
    expect(run.tableMarkdown).toMatch(/\*\*120,000\*\* \| \*\*20,000\*\* \| \*\*3,000\*\*/);
    const junit = readFileSync(join(run.out, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<property name="cost_usd" value="${10 * callCost(DEAR)}"/>`);
    expect(junit).toContain('120,000 input tokens (20,000 cached), 3,000 output tokens (1,000 reasoning)');
    const summary = readFileSync(join(folder.path, 'step-summary.md'), 'utf8');
    expect(summary).toContain(`240,000 input tokens (40,000 cached), 6,000 output tokens, cost **$${(10 * (callCost(CHEAP) + callCost(DEAR))).toFixed(4)}**`);
    expect(summary).toContain('| input tokens | cached tokens | output tokens | cost $ | $ per level |');

    const both = runEpisodesOfFolder(readRunFolder(run.out), run.out);
    const comparison = compareRuns(oneAgentAs(both, 'cheap', 'llm'), oneAgentAs(both, 'dear', 'llm'));
    const markdown = renderComparisonMarkdown(comparison);
    expect(markdown).toContain('| baseline $ | candidate $ | Δ $ | Δ tokens |');
    expect(markdown).toContain(`**+${(10 * (callCost(DEAR) - callCost(CHEAP))).toFixed(4)}** | **+0** |`);
  });
});
