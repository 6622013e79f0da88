/**
 * Figures as a reader sees them in the files a run writes for CI: junit.xml's times to the millisecond
 * (a float sum printed whole read `time="1.9220000000000002"`), and the step summary's action count with
 * thousands separators (`28,085 actions`, not `28085`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { junitSeconds } from '../src/runner/results/junitReport.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-figures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('figures in the files for CI', () => {
  it("junit.xml's times have at most three decimals, whatever the episodes' wall times", () => {
    const wallTimes = fc.array(
      fc.integer({ min: 0, max: 10_000_000 }).map((ms) => ({ wall_seconds: ms / 1000 })),
      { maxLength: 50 },
    );
    fc.assert(
      fc.property(wallTimes, (episodes) => {
        const seconds = junitSeconds(episodes);
        expect(String(seconds)).toMatch(/^\d+(\.\d{1,3})?$/);
        expect(Math.abs(seconds - episodes.reduce((sum, e) => sum + e.wall_seconds, 0))).toBeLessThan(0.0005 + 1e-9);
      }),
    );
    expect(junitSeconds([{ wall_seconds: 0.8 }, { wall_seconds: 1.122 }])).toBe(1.922);
  });

  it('the step summary counts actions with thousands separators', async () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(file, 'name: many\ngames: [lamp]\nagents: [{ use: random }]\nbudgets: { max_actions: 1200 }\nrecordings: false\n');
    const summary = join(dir, 'summary.md');
    const { report } = await runExperiment(await loadExperiment(file), { out: join(dir, 'out'), stepSummary: summary });
    expect(report.totals.actions).toBeGreaterThanOrEqual(1000);
    expect(readFileSync(summary, 'utf8')).toContain(`${report.totals.actions.toLocaleString('en-US')} actions`);
  });
});
