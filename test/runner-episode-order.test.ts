/**
 * A run's results list its episodes in the order their play ended, though their recordings complete
 * on the recording thread in whatever order its files allow: at concurrency 1, episodes.jsonl is the
 * order the episodes were played in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExperiment, runExperiment } from '../src/index.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { tempDir } from './support/tempDir.ts';

describe('episodes.jsonl', () => {
  it('lists the episodes of a one-at-a-time run with gzip recordings in the order they were played', async () => {
    const dir = tempDir('episode-order');
    const yaml = 'name: order\ntarget: reference\ngames: [crat, lamp]\nagents:\n  - use: random\nepisodes: 20\nbudgets: { max_actions: 6 }\nconcurrency: 1\n';
    const experiment = await parseExperiment(yaml, { file: join(dir, 'order.yaml'), baseDir: dir });
    const { runDir } = await runExperiment(experiment, { out: join(dir, 'run') });
    const records = parseEpisodeLog(readFileSync(join(runDir, 'episodes.jsonl'), 'utf8'));
    expect(records).toHaveLength(40);
    const startedAt = records.map((r) => Date.parse(r.started_at));
    expect(startedAt).toEqual([...startedAt].sort((a, b) => a - b));
    for (const game of new Set(records.map((r) => r.game_id))) {
      const indices = records.filter((r) => r.game_id === game).map((r) => r.episode);
      expect(indices).toEqual([...indices].sort((a, b) => a - b));
    }
  });
});
