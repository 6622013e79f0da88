import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentFromFlags } from '../src/runner/config/loader.ts';
import { readableLine } from '../src/runner/results/readableLog.ts';
import { runEpisodesOfFolder } from '../src/analysis/runEpisodes.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { RunFolderError } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { itemAt } from './support/lists.ts';
import { runArcbench } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-reading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runDir = join(dir, 'run');
beforeAll(async () => {
  const experiment = await experimentFromFlags(['random'], { baseDir: dir, overrides: { games: ['crat'], episodes: 2 } });
  await runExperiment(experiment, { out: runDir });
});

describe('reading a run folder back', () => {
  it('gives each episode its own score as episodes.jsonl holds it, and scores older lines without one', () => {
    const folder = readRunFolder(join(runDir, 'run.json'));
    const scored = runEpisodesOfFolder(folder, 'run').episodes;
    expect(scored.map((e) => e.score)).toEqual(folder.episodes.map((e) => e.score));

    const older = join(dir, 'older');
    cpSync(runDir, older, { recursive: true });
    const lines = readFileSync(join(older, 'episodes.jsonl'), 'utf8').trim().split('\n');
    const withoutScore = lines.map((line) => {
      const { score: _score, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    writeFileSync(join(older, 'episodes.jsonl'), `${withoutScore.join('\n')}\n`);
    expect(runEpisodesOfFolder(readRunFolder(older), 'older').episodes).toEqual(scored);
  });

  it('names the line and the field of a damaged episode log', () => {
    const damaged = join(dir, 'damaged');
    cpSync(runDir, damaged, { recursive: true });
    const lines = readFileSync(join(damaged, 'episodes.jsonl'), 'utf8').trim().split('\n');
    writeFileSync(join(damaged, 'episodes.jsonl'), `${itemAt(lines, 0, 'line')}\n${itemAt(lines, 1, 'line').replace('"episode":1', '"episode":"one"')}\n`);
    expect(() => readRunFolder(damaged)).toThrow(RunFolderError);
    expect(() => readRunFolder(damaged)).toThrow(new RegExp(`^${join(damaged, 'episodes.jsonl')} line 2: not an episode of this arcbench: episode: `));
    writeFileSync(join(damaged, 'episodes.jsonl'), `${lines[0]}\n{"agent":\n`);
    expect(() => readRunFolder(damaged)).toThrow(/line 2: not JSON \(.*\); the episode log is damaged$/);
  });

  it('refuses a folder without run.json', () => {
    expect(() => readRunFolder(dir)).toThrow(`${dir}: no run.json here; give a run folder written by \`arcbench run\`, or its run.json`);
  });
});

describe('readable log lines (stderr without a TTY)', () => {
  it('turns a pino line into time, level (warnings and errors), message and short fields', () => {
    const time = new Date(2025, 0, 31, 12, 4, 31).getTime();
    expect(
      readableLine(JSON.stringify({ level: 30, time, msg: 'episode finished', agent: 'explorer', game: 'crat-a280ea19', episode: 1, outcome: 'win' })),
    ).toBe('12:04:31 episode finished agent=explorer game=crat-a280ea19 episode=1 outcome=win\n');
    expect(
      readableLine(JSON.stringify({ level: 50, time, msg: 'episode failed', error: { kind: 'transport_unreachable', message: 'connect ECONNREFUSED' } })),
    ).toBe('12:04:31 ERROR episode failed error="transport_unreachable: connect ECONNREFUSED"\n');
    const long = readableLine(JSON.stringify({ level: 30, time, msg: 'run started', provenance: { git: { sha: 'a'.repeat(40) }, argv: ['x'.repeat(100)] } }));
    expect(long.length).toBeLessThan(120);
    expect(long).toMatch(/provenance=\{"git".*…\n$/);
    expect(readableLine('not json')).toBe('not json\n');
  });

  it('shows a score as a reader reads it (3.56), where run.log keeps it whole', async () => {
    const folder = join(dir, 'scores');
    writeFileSync(
      join(dir, 'scores.yaml'),
      'name: scores\ngames: all\nagents: [{ use: explorer }]\nepisodes: 2\nbudgets: { max_actions: 60 }\nrecordings: false\n',
    );
    const result = await runArcbench(['run', 'scores.yaml', '--out', folder], dir);
    expect(result.code, result.stderr).toBe(0);
    const closed = readFileSync(join(folder, 'run.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'scorecard closed');
    expect(String(closed.score)).toMatch(/^\d+\.\d{5,}$/);
    expect(result.stderr).toContain(`score=${Number(closed.score.toFixed(2))}`);
    expect(result.stderr).not.toMatch(/=\d+\.\d{5,}/);
  }, 60_000);
});
