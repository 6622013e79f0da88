// The episode deadline and the run's stop reach an agent that is still deciding: its signal fires, and
// an agent that ignores the signal is cut all the same (outcome time or cancelled, not a hung run).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { firstOf } from './support/lists.ts';

const PLUGIN = `
import { defineAgent, z, action } from 'arcbench';

export default defineAgent({
  name: 'ponder',
  params: z.strictObject({ listens: z.boolean() }),
  create: ({ params, signal }) => ({
    act: (_frame, { step }) =>
      step === 0
        ? action(1)
        : new Promise((resolve, reject) => {
            // One that listens gives up on the signal; one that does not would think forever.
            if (params.listens) signal.addEventListener('abort', () => reject(new Error('gave up: ' + signal.aborted)));
          }),
  }),
});
`;

describe('an agent still deciding', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(listens: boolean, budgets: string, signal?: AbortSignal) {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-deadline-'));
    writeFileSync(join(dir, 'ponder.ts'), PLUGIN);
    writeFileSync(
      join(dir, 'exp.yaml'),
      `name: ponder\ngames: [crat]\nagents:\n  - use: ./ponder.ts\n    params: { listens: ${listens} }\nbudgets: ${budgets}\nrecordings: false\n`,
    );
    return runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out'), ...(signal ? { signal } : {}) });
  }

  it.each([true, false])('is cut at the episode deadline (listening to its signal: %s)', async (listens) => {
    const started = Date.now();
    const { episodes } = await run(listens, '{ episode_seconds: 0.5 }');
    const episode = firstOf(episodes, 'episode');
    expect(episode).toMatchObject({ outcome: 'time', actions: 1 });
    expect(episode.error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('many episodes in flight listen to the run stop without a listener warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      dir = mkdtempSync(join(tmpdir(), 'arcbench-deadline-'));
      writeFileSync(
        join(dir, 'exp.yaml'),
        'name: wide\nagents: [{ use: random }]\nepisodes: 6\nconcurrency: 32\nbudgets: { max_actions: 30 }\nrecordings: false\n',
      );
      const { report } = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out') });
      expect(report.totals.episodes).toBe(36);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('is cut when the run is interrupted', async () => {
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(), 300);
    const { episodes, report } = await run(false, '{ max_actions: 10 }', interrupt.signal);
    expect(episodes[0]).toMatchObject({ outcome: 'cancelled', actions: 1 });
    expect(report.status).toBe('interrupted');
  });
});
