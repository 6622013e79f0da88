// The explorer must clearly beat the random baseline over the whole catalog, with a fixed seed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { tempDir } from './support/tempDir.ts';

function localScoreOf(report: RunReport, label: string) {
  const agent = report.agents.find((a) => a.label === label);
  if (agent === undefined) throw new Error(`no agent labelled ${label} in run.json`);
  return agent.local_score;
}

describe('explorer', () => {
  it('scores more and completes more levels than random on the catalog', async () => {
    const dir = tempDir('explorer');
    writeFileSync(
      join(dir, 'versus.yaml'),
      'name: versus\nagents: [{ use: random }, { use: explorer }]\nepisodes: 2\nseed: 1\nbudgets: { max_actions: 400 }\nrecordings: false\n',
    );
    const { report } = await runExperiment(await loadExperiment(join(dir, 'versus.yaml')), { out: join(dir, 'out') });
    const random = localScoreOf(report, 'random');
    const explorer = localScoreOf(report, 'explorer');
    expect(explorer.score).toBeGreaterThan(2 * random.score!);
    expect(explorer.total_levels_completed).toBeGreaterThan(random.total_levels_completed);
  });

  it('plays the same episode twice from the same seed', async () => {
    const dir = tempDir('explorer');
    writeFileSync(
      join(dir, 'twice.yaml'),
      'name: twice\ngames: [keyboard]\nagents: [{ use: explorer }]\nseed: 9\nbudgets: { max_actions: 150 }\nrecordings: false\n',
    );
    const experiment = await loadExperiment(join(dir, 'twice.yaml'));
    const a = await runExperiment(experiment, { out: join(dir, 'a') });
    const b = await runExperiment(experiment, { out: join(dir, 'b') });
    const play = (episodes: typeof a.episodes) =>
      episodes.map((e) => [e.game_id, e.actions, e.levels_completed, e.runs.map((r) => r.completion_actions)]).sort();
    expect(play(b.episodes)).toEqual(play(a.episodes));
  });
});
