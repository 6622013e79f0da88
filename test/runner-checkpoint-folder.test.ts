// Episodes' checkpoint files (src/runfolder/checkpointFile.ts), with real files: a run whose
// episodes never needed one leaves no checkpoints/ folder behind; a checkpoint is written even when its
// folder went away after an earlier one; and a file written over in place reads as the last write, or,
// cut short by a kill mid-write, as unreadable (the resume then starts the episode over).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointFile, type CheckpointState, parseCheckpoint } from '../src/runfolder/checkpointFile.ts';
import { readCheckpointFolder } from '../src/runfolder/checkpointReading.ts';
import { readCheckpoints } from '../src/runner/resume/continuations.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { emptyUsage } from '../src/agent/usage.ts';
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
    expect(readdirSync(join(dir, 'checkpoints')).filter((file) => file.endsWith('.json'))).toHaveLength(1);
    rmSync(join(dir, 'checkpoints'), { recursive: true });
    const second = new CheckpointFile(dir, { ...HEAD, episode: 1 });
    second.writeInFlight();
    expect(readdirSync(join(dir, 'checkpoints')).filter((file) => file.endsWith('.json'))).toHaveLength(1);
    second.remove();
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([]);
  });

  /** A state whose snapshot is `size` characters long, at `step`, from a real frame of the reference service. */
  function state(step: number, size: number): CheckpointState {
    const service = new ReferenceService();
    const card = service.openScorecard('key', {}).card_id;
    const frame = service.command('key', 'RESET', { game_id: service.listGames('key')[0]!.game_id, card_id: card });
    const snapshot = JSON.stringify({ notes: 'n'.repeat(size) });
    return { step, frame, ledger: { actions: step } as never, usage: {} as never, modelCalls: [], snapshot };
  }

  it('reads as the last write after a longer one, nothing of the longer one left', () => {
    const dir = tempDir('checkpoint-folder');
    const file = new CheckpointFile(dir, HEAD);
    file.write(state(3, 30_000));
    file.write(state(4, 100));
    const read = parseCheckpoint(readFileSync(file.path, 'utf8'));
    expect(read).toMatchObject({ step: 4, snapshot: { notes: 'n'.repeat(100) } });
    expect(readCheckpoints(dir)).toHaveLength(1);
  });

  it('is skipped by a resume when a kill cut its write short, the start new and the rest old', () => {
    const dir = tempDir('checkpoint-folder');
    const file = new CheckpointFile(dir, HEAD);
    file.write(state(3, 30_000));
    const older = readFileSync(file.path);
    file.write(state(4, 30_000));
    const newer = readFileSync(file.path);
    expect(parseCheckpoint(newer.toString('utf8'))).toMatchObject({ step: 4 });
    // What the kernel leaves when a kill stops a write at a page boundary.
    writeFileSync(file.path, Buffer.concat([newer.subarray(0, 4096), older.subarray(4096)]));
    expect(readCheckpoints(dir)).toEqual([]);
  });

  it('has seals of its own when a resume makes it from the checkpoint it continues', () => {
    const dir = tempDir('checkpoint-folder');
    const first = new CheckpointFile(dir, HEAD);
    for (let step = 1; step <= 5; step++) first.write(state(step, 50));
    const checkpoint = parseCheckpoint(readFileSync(first.path, 'utf8'))!;
    const { format: _format, ...head } = checkpoint;
    const continued = new CheckpointFile(dir, { ...head, recording: null });
    continued.write(state(6, 50));
    expect(readCheckpoints(dir)).toMatchObject([{ step: 6 }]);
  });

  it('made from a checkpoint with an action pending, holds no pending action once the next answer is in', () => {
    const dir = tempDir('checkpoint-folder');
    const first = new CheckpointFile(dir, HEAD);
    first.write({ ...state(2, 50), pending: { action: { id: 3 }, snapshot: '{"decided":3}' } });
    const { format: _format, ...head } = parseCheckpoint(readFileSync(first.path, 'utf8'))!;
    const continued = new CheckpointFile(dir, { ...head, recording: null });
    continued.write(state(3, 50));
    const [read] = readCheckpoints(dir);
    expect(read).toMatchObject({ step: 3, snapshot: { notes: 'n'.repeat(50) } });
    expect(read!.pending).toBeUndefined();
  });

  it('is unreadable, naming the file and the field, when a field has the wrong type (a pending action of id "x")', () => {
    const dir = tempDir('checkpoint-folder');
    const file = new CheckpointFile(dir, { ...HEAD, continuable: true });
    file.write({ ...state(2, 50), ledger: { runs: [] }, usage: emptyUsage(), pending: { action: { id: 3 }, snapshot: '{"decided":3}' } });
    expect(readCheckpoints(dir)).toMatchObject([{ step: 2, pending: { action: { id: 3 } } }]);
    const text = readFileSync(file.path, 'utf8').replace('"action":{"id":3}', '"action":{"id":"x"}');
    writeFileSync(file.path, text);
    expect(parseCheckpoint(text)).toBeUndefined();
    const { checkpoints, unreadable } = readCheckpointFolder(dir);
    expect(checkpoints).toEqual([]);
    expect(unreadable).toEqual([
      {
        file: 'flod-00000001.random.0.json',
        reason: expect.stringMatching(/^its checkpoint checkpoints\/flod-00000001\.random\.0\.json cannot be used: .*pending\.action\.id/),
      },
    ]);
  });
});
