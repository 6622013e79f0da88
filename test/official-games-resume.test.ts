/**
 * Nothing above the service knows a game is in Python: a run of official games against `arcbench serve
 * --games-dir`, killed with SIGKILL in the middle of an episode and resumed, ends with every planned
 * episode once, every card closed, and the scores of a run that was never killed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentEpisodes, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { pythonHasRealEngineDependencies } from './support/officialCode.ts';
import { serveGames } from './support/officialServe.ts';
import { tempDir } from './support/tempDir.ts';

const TRAP_AGENT = join(import.meta.dirname, 'fixtures', 'trapAgent.ts');
const PLANNED = 2 * 2;

function experimentYaml(url: string, marker: string): string {
  return [
    'name: official-killed',
    `target: { url: "${url}", api_key: official-resume }`,
    'games: [bt11, bt33]',
    'agents:',
    `  - use: ${JSON.stringify(TRAP_AGENT)}`,
    `    params: { trap: { game: bt33, episode: 0, step: 6, mode: freeze, marker: ${JSON.stringify(marker)} } }`,
    'episodes: 2',
    'seed: 11',
    'budgets: { max_actions: 30 }',
    'concurrency: 1',
    'recordings: true',
    '',
  ].join('\n');
}

const scores = (report: RunReport) => report.agents.map((a) => ({ score: a.local_score.score, games: a.local_score.environments.map((e) => [e.id, e.score]) }));

describe.skipIf(!pythonHasRealEngineDependencies())('official games: kill -9 and resume (python3 lacks numpy or pydantic otherwise)', () => {
  it('a killed run of official games resumes to every episode once and the scores of an unkilled run', async () => {
    const dir = tempDir('official-resume');
    const server = await serveGames();
    try {
      const marker = join(dir, 'trap.marker');
      const config = join(dir, 'killed.yaml');
      writeFileSync(config, experimentYaml(server.url, marker));
      const out = join(dir, 'killed');
      const run = startArcbench(['run', config, '--out', out], dir);
      await waitUntil(() => existsSync(marker), 'the trap in bt33', 60_000);
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');

      const resumed = await runArcbench(['resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const folder = readRunFolder(out);
      const keys = currentEpisodes(folder.records).map((e) => `${e.game_id}/${e.episode}`);
      expect(new Set(keys).size).toBe(PLANNED);
      expect(keys.length).toBe(PLANNED);
      expect(folder.report).toMatchObject({ status: 'completed', totals: { episodes: PLANNED, errors: 0 } });
      expect(folder.report.attempts.map((a) => a.status)).toEqual(['died', 'completed']);
      for (const card of folder.report.cards) expect(card.state).toBe('closed');

      // The trap's marker exists now, so this run plays straight through.
      const whole = await runArcbench(['run', config, '--out', join(dir, 'whole')], dir);
      expect(whole.code, whole.stderr).toBe(0);
      const unkilled = JSON.parse(readFileSync(join(dir, 'whole', 'run.json'), 'utf8')) as RunReport;
      expect(scores(folder.report)).toEqual(scores(unkilled));
    } finally {
      await server.stop();
    }
  }, 120_000);
});
