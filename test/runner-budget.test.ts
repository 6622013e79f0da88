// Budgets count actions exactly as the service does: max_actions 80 sends 80 counted actions, not 81,
// and the scorecard's own count proves it. The per-level cap is a multiple of the level's baseline.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { firstOf, itemAt } from './support/lists.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(name: string, budgets: string) {
  writeFileSync(join(dir, `${name}.yaml`), `name: ${name}\nagents: [{ use: random }]\nepisodes: 2\nseed: 3\nbudgets: ${budgets}\nrecordings: false\n`);
  return runExperiment(await loadExperiment(join(dir, `${name}.yaml`)), { out: join(dir, name) });
}

describe('budgets', () => {
  it('max_actions 80 means exactly 80 actions on the card per episode', async () => {
    const { report, episodes } = await run('eighty', '{ max_actions: 80 }');
    const card = firstOf(report.agents, 'agent').scorecard!;
    const unfinished = episodes.filter((e) => e.outcome === 'budget');
    expect(unfinished.length).toBeGreaterThan(0);
    for (const episode of unfinished) expect(episode.actions).toBe(80);
    for (const episode of episodes) expect(episode.actions).toBeLessThanOrEqual(80);
    // The service counted what was sent: per game, the card's actions equal the episodes' sum.
    for (const env of card.environments!) {
      const sent = episodes.filter((e) => e.game_id === env.id).reduce((sum, e) => sum + e.actions, 0);
      expect(env.actions).toBe(sent);
      for (const runEntry of env.runs!) expect(runEntry.actions).toBeLessThanOrEqual(80);
    }
    expect(card.total_actions).toBe(unfinished.length * 80 + episodes.filter((e) => e.outcome !== 'budget').reduce((s, e) => s + e.actions, 0));
  });

  it("stops a level at its multiple of the level's baseline", async () => {
    const { episodes } = await run('per-level', '{ max_actions: 5000, max_actions_per_level: 2 }');
    for (const episode of episodes.filter((e) => e.outcome === 'level_budget')) {
      const run = episode.runs.at(-1)!;
      const level = run.levels_completed;
      const onLevel = run.actions - (run.completion_actions.at(-1) ?? 0);
      expect(onLevel).toBe(Math.ceil(2 * itemAt(episode.baselines, level, 'level baseline')));
    }
    expect(episodes.some((e) => e.outcome === 'level_budget')).toBe(true);
  });
});
