/**
 * An experiment file's games_dir, as a user writes it: `arcbench run` (the built CLI) plays the folder's
 * official games in-process, frame for frame and score for score as the toolkit's own local environment
 * plays the same actions; `arcbench validate` and `run` name what stops them before anything is played.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { pythonHasRealEngineDependencies } from './support/officialCode.ts';
import { tempDir } from './support/tempDir.ts';
import { asToolkitFrame, ENGINE_ENV, PLAYS, TOOLKIT_GAMES_DIR, toolkitPlay } from './support/toolkitPlays.ts';

const SCRIPTED = join(import.meta.dirname, 'fixtures', 'scriptedActions.ts');

function arcbench(args: string[], cwd: string, env: NodeJS.ProcessEnv = ENGINE_ENV): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ARCBENCH_BIN, ...args], { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** An experiment playing `gamesDir` (written relative to the file's folder) with the scripted agent. */
function experiment(dir: string, gamesDir: string, extra: Record<string, unknown> = {}, plays = PLAYS): string {
  const config = {
    name: 'official',
    games_dir: relative(dir, gamesDir),
    games: ['bt11', 'bt33'],
    target: 'reference',
    game_hosts: 2,
    agents: [{ use: SCRIPTED, params: { plays } }],
    budgets: { max_actions: 500 },
    recordings: 'jsonl',
    output: join(dir, 'results'),
    ...extra,
  };
  const file = join(dir, 'official.yaml');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

function recordedFrames(runDir: string, slug: string) {
  const folder = join(runDir, 'recordings');
  const name = readdirSync(folder).find((file) => file.startsWith(`${slug}-`) && file.endsWith('.recording.jsonl'));
  const lines = readFileSync(join(folder, name!), 'utf8').trim().split('\n');
  return lines.map((line) => {
    const data = JSON.parse(line).data;
    return asToolkitFrame({ ...data, frame: data.frame.map((grid: number[][]) => Uint8Array.from(grid.flat())) });
  });
}

describe.skipIf(!pythonHasRealEngineDependencies())('games_dir in an experiment file (python3 lacks numpy or pydantic otherwise)', () => {
  it('plays the toolkit test games in-process, frames and scores equal to the toolkit for the same actions', async () => {
    const dir = tempDir('official-run');
    // An episode ends at a win: the actions after it are the toolkit's alone, so both stop there.
    const whole = toolkitPlay();
    const untilWin = (slug: string) => whole.frames[slug]!.findIndex((frame) => frame.state === 'WIN');
    const plays = Object.fromEntries(Object.entries(PLAYS).map(([slug, steps]) => [slug, untilWin(slug) < 0 ? steps : steps.slice(0, untilWin(slug))]));
    const file = experiment(dir, TOOLKIT_GAMES_DIR, {}, plays);
    const expected = toolkitPlay(plays);
    const run = await arcbench(['run', file], dir);
    expect(run.stderr).not.toMatch(/unexpected/);
    expect(run.code, run.stderr).toBe(0);
    const [runName] = readdirSync(join(dir, 'results'));
    const runDir = join(dir, 'results', runName!);
    const episodes = readFileSync(join(runDir, 'episodes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const slug of Object.keys(plays)) {
      const frames = recordedFrames(runDir, slug);
      expect(frames.length).toBe(expected.frames[slug]!.length);
      for (const [index, frame] of frames.entries()) expect({ index, ...frame }).toEqual({ index, ...expected.frames[slug]![index] });
      const episode = episodes.find((e) => e.game_id.startsWith(slug));
      const environment = expected.scorecard.environments.find((e) => e.id.startsWith(slug))!;
      expect(episode.score).toBe(environment.score);
    }
  }, 120_000);

  it('validate names the file and line of a game that does not import, and exits 2', async () => {
    const dir = tempDir('official-validate');
    const games = join(dir, 'environment_files', 'bt99', '0001');
    mkdirSync(games, { recursive: true });
    writeFileSync(join(games, 'metadata.json'), JSON.stringify({ game_id: 'bt99-0001', baseline_actions: [3] }));
    writeFileSync(join(games, 'bt99.py'), 'import os\n\nraise ImportError("no such helper")\n');
    const file = experiment(dir, join(dir, 'environment_files'), { games: 'all' });
    const checked = await arcbench(['validate', file], dir);
    expect(checked.code).toBe(2);
    expect(checked.stderr).toMatch(/bt99\.py:3: ImportError: no such helper/);
    expect(checked.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('run without arcengine says how to install it in one sentence and exits 2 before anything is played', async () => {
    const dir = tempDir('official-no-engine');
    const file = experiment(dir, TOOLKIT_GAMES_DIR);
    const run = await arcbench(['run', file], dir, { ...process.env, PYTHONPATH: '' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/arcengine.*pip install arcengine/);
    expect(existsSync(join(dir, 'results'))).toBe(false);
  }, 60_000);

  it("plan lists the folder's games as a run would play them", async () => {
    const dir = tempDir('official-plan');
    const file = experiment(dir, TOOLKIT_GAMES_DIR, {});
    const plan = await arcbench(['plan', file], dir);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/bt11-[0-9a-f]+/);
    expect(plan.stdout).toMatch(/bt33-[0-9a-f]+/);
  }, 60_000);

  it('refuses games_dir with a service URL, naming the key', async () => {
    const dir = tempDir('official-url');
    const file = experiment(dir, TOOLKIT_GAMES_DIR, { target: { url: 'http://127.0.0.1:9', api_key: 'k' } });
    const run = await arcbench(['run', file], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/games_dir: .*service URL/);
  }, 60_000);
});
