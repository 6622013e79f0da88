// SIGINT in the middle of `arcbench run`: scheduling stops, in-flight episodes end, every scorecard is
// closed, finished episodes stay in episodes.jsonl, run.json is written, and the exit code says so.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import type { RunReport } from '../src/runner/runExperiment.ts';
import { tempDir } from './support/tempDir.ts';

function lineCount(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

describe('interrupting a run', () => {
  it('closes the cards and keeps finished episodes on SIGINT', async () => {
    const dir = tempDir('sigint');
    const out = join(dir, 'out');
    // Big enough to be mid-run for many seconds: thousands of episodes.
    writeFileSync(
      join(dir, 'big.yaml'),
      'name: big\nagents: [{ use: random }, { use: explorer }]\nepisodes: 500\nbudgets: { max_actions: 200 }\nconcurrency: 2\nrecordings: false\n',
    );
    const child = spawn(process.execPath, [ARCBENCH_BIN, 'run', join(dir, 'big.yaml'), '--out', out], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const episodesFile = join(out, 'episodes.jsonl');
    try {
      const deadline = Date.now() + 30_000;
      while (lineCount(episodesFile) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(lineCount(episodesFile)).toBeGreaterThanOrEqual(3);
      child.kill('SIGINT');
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);

      expect(code, stderr).toBe(130);
      const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
      expect(report.status).toBe('interrupted');
      for (const agent of report.agents) {
        expect(agent.close_error).toBeNull();
        expect(agent.scorecard?.published_at).toBeTruthy();
      }
      const episodes = parseEpisodeLog(readFileSync(episodesFile, 'utf8'));
      expect(episodes.length).toBe(report.totals.episodes);
      expect(episodes.length).toBeLessThan(report.totals.planned_episodes);
      // What was played is what the closed cards counted.
      const cardActions = report.agents.reduce((sum, a) => sum + a.scorecard!.total_actions!, 0);
      expect(cardActions).toBe(episodes.reduce((sum, e) => sum + e.actions, 0));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
