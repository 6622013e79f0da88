/**
 * A run whose agent thinks long is never silent: the live line shows from the start, and a decision
 * that has not answered is reported (to the log's readable lines, as CI shows them, and above the live
 * line) when it has waited long, then each time its wait doubles. Without budgets in the config an
 * episode still has wall-time limits, stated with the word "default".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EPISODE_SECONDS, DEFAULT_FIRST_ACTION_SECONDS, timeSpentSentence } from '../src/episode/budgets.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { ProgressSnapshot } from '../src/runner/progress.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'arcbench-heartbeat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run that waits on its agent', () => {
  it('shows the live line at once and reports a decision that takes long, by agent, step and game', async () => {
    writeFileSync(
      join(dir, 'slow.mjs'),
      `import { defineAgent, action } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};\n` +
        'export default defineAgent({ name: "slow", create: () => ({ act: async (frame, { step }) => {\n' +
        '  if (step === 2) await new Promise((done) => setTimeout(done, 1200));\n' +
        '  return action(1);\n' +
        '} }) });\n',
    );
    writeFileSync(join(dir, 'slow.yaml'), 'name: slow\ngames: [lamp]\nagents: [{ use: ./slow.mjs }]\nbudgets: { max_actions: 4 }\nrecordings: false\n');
    const lines: string[] = [];
    const updates: ProgressSnapshot[] = [];
    const notices: string[] = [];
    await runExperiment(await loadExperiment(join(dir, 'slow.yaml')), {
      out: join(dir, 'out'),
      heartbeat: { everyMs: 50, firstAfterMs: 300 },
      consoleLog: { write: (line: string) => lines.push(line) },
      progress: { update: (snapshot) => updates.push(snapshot), notice: (sentence) => notices.push(sentence), stop() {} },
    });
    expect(updates[0]).toEqual({ done: 0, total: 1, actions: 0, retries: 0, errors: 0 });
    const reported = /agent "slow" has been deciding step 2 of lamp-[0-9a-f]+ \(episode 0\) for \d+ s/;
    expect(lines.some((line) => reported.test(line))).toBe(true);
    // Reported after 0.3 s, then only when the wait has doubled: a few times in 1.2 s, never on every look (24 looks).
    const reports = notices.filter((sentence) => reported.test(sentence)).length;
    expect(reports).toBeGreaterThanOrEqual(1);
    expect(reports).toBeLessThanOrEqual(3);
  });

  it('has wall-time limits by default, and says so when one ends an episode', () => {
    expect([DEFAULT_FIRST_ACTION_SECONDS, DEFAULT_EPISODE_SECONDS]).toEqual([600, 14_400]);
    expect(timeSpentSentence('first_action_seconds', { max_actions: 80 })).toBe(
      'the agent sent no first action within budgets.first_action_seconds (600 s, the default)',
    );
    expect(timeSpentSentence('episode_seconds', { max_actions: 80 })).toBe(
      "the episode's time (budgets.episode_seconds, 14400 s by default) ran out; the episode ends and the run goes on",
    );
  });
});
