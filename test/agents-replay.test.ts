// The replay agent plays a recording back (gzip, as runs write them by default, or plain) and reports
// the first grid that differs from it.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { readRecordingText } from '../src/recording/recordingReader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { firstOf } from './support/lists.ts';
import { tempDir } from './support/tempDir.ts';

async function run(dir: string, name: string, yaml: string) {
  writeFileSync(join(dir, `${name}.yaml`), yaml);
  return runExperiment(await loadExperiment(join(dir, `${name}.yaml`)), { out: join(dir, name) });
}

describe('replay', () => {
  it('replays a recording with every grid matching, then finds a changed cell', async () => {
    const dir = tempDir('replay');
    const first = await run(dir, 'original', 'name: original\ngames: [slid]\nagents: [{ use: random }]\nseed: 4\nbudgets: { max_actions: 30 }\n');
    const episode = firstOf(first.episodes, 'episode');
    expect(episode.recording).toMatch(/\.recording\.jsonl\.gz$/);
    const recording = join(dir, 'original', episode.recording!);
    const gameId = episode.game_id;

    const again = await run(
      dir,
      'again',
      `name: again\ngames: [${gameId}]\nagents: [{ use: replay, params: { recording: ${JSON.stringify(recording)} } }]\nrecordings: false\n`,
    );
    expect(again.episodes[0]).toMatchObject({ outcome: 'agent_stop', actions: episode.actions, stop_details: { matched: true } });

    // Change one cell of the grid recorded after the 5th action: the replay must point at it.
    const lines = (await readRecordingText(recording))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const grid = lines[5].data.frame.at(-1);
    grid[20][7] = (grid[20][7] + 1) % 16;
    const altered = join(dir, 'altered.recording.jsonl');
    writeFileSync(altered, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const diff = await run(
      dir,
      'diff',
      `name: diff\ngames: [${gameId}]\nagents: [{ use: replay, params: { recording: altered.recording.jsonl } }]\nrecordings: false\n`,
    );
    const result = firstOf(diff.episodes, 'episode');
    expect(result.outcome).toBe('agent_stop');
    expect(result.stop_details).toMatchObject({ step: 5, x: 7, y: 20, grid: lines[5].data.frame.length - 1 });
    expect(result.stop_reason).toMatch(/^step 5: frame\[\d+\] at \(x 7, y 20\)/);
    expect(readdirSync(join(dir, 'diff'))).toContain('episodes.jsonl');
  });
});
