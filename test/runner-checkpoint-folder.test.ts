// Where episodes' checkpoints go (src/runner/episode/episodeCheckpoint.ts), with real files: a run whose
// episodes never needed one leaves no checkpoints/ folder behind, and a checkpoint is written even when
// its folder went away after an earlier one was written (a run folder moved aside and made again).
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointFile } from '../src/runner/episode/episodeCheckpoint.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { tempDir } from './support/tempDir.ts';

const HEAD = {
  agent: 'random',
  game_id: 'flod-00000001',
  episode: 0,
  seed: 1,
  attempt: 1,
  target: 'reference',
  continuable: false,
  card_id: 'card-1',
  guid: 'guid-1',
  recording: null,
  started_at: '2026-11-26T00:00:00.000Z',
  win_levels: 3,
  baselines: [10, 10, 10],
  baselines_known: true,
};

describe('checkpoints on disk', () => {
  it('an in-process run whose episodes end within their first second leaves no checkpoints folder', async () => {
    const dir = tempDir('checkpoint-folder');
    writeFileSync(join(dir, 'quick.yaml'), 'name: quick\nagents: [{ use: random }]\nepisodes: 1\nbudgets: { max_actions: 20 }\nrecordings: false\n');
    const result = await runExperiment(await loadExperiment(join(dir, 'quick.yaml')), { out: join(dir, 'out') });
    expect(result.report.status).toBe('completed');
    expect(readdirSync(join(dir, 'out'))).not.toContain('checkpoints');
  });

  it('makes its folder when it writes, again if the folder was removed since', () => {
    const dir = tempDir('checkpoint-folder');
    const first = new CheckpointFile(dir, HEAD);
    expect(existsSync(join(dir, 'checkpoints'))).toBe(false);
    first.writeInFlight();
    expect(readdirSync(join(dir, 'checkpoints'))).toHaveLength(1);
    rmSync(join(dir, 'checkpoints'), { recursive: true });
    const second = new CheckpointFile(dir, { ...HEAD, episode: 1 });
    second.writeInFlight();
    expect(readdirSync(join(dir, 'checkpoints'))).toHaveLength(1);
    second.remove();
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([]);
  });
});
