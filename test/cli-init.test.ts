// `arcbench init` from the sources: what it writes, what it says, and that it never overwrites. That
// its files run as they are, from an installed package, is proven in test/package.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = ARCBENCH_BIN;

describe('arcbench init', () => {
  let dir: string;
  const init = (...args: string[]) => spawnSync(process.execPath, [CLI, 'init', ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-init-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the starter experiment and agent, and says what to run next', () => {
    const result = init();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^wrote experiment\.yaml {2}/m);
    expect(result.stdout).toMatch(/^wrote my-agent\.ts {6}/m);
    expect(result.stdout).toMatch(/^next: npx arcbench run experiment\.yaml$/m);
    expect(readFileSync(join(dir, 'my-agent.ts'), 'utf8')).toBe(readFileSync(join(ROOT, 'templates', 'my-agent.ts'), 'utf8'));
    expect(readFileSync(join(dir, 'experiment.yaml'), 'utf8')).toMatch(/^ {2}- use: \.\/my-agent\.ts$/m);

    const validate = spawnSync(process.execPath, [CLI, 'validate', 'experiment.yaml'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(validate.stdout).toMatch(/^experiment\.yaml: valid; 2 agent\(s\) \(my-agent, random\)/);
  });

  it('writes into a folder it makes, and names it in the next command', () => {
    const result = init('lab/first');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^next: npx arcbench run lab\/first\/experiment\.yaml$/m);
    expect(existsSync(join(dir, 'lab', 'first', 'my-agent.ts'))).toBe(true);
  });

  // Node's recursive mkdir spun forever (deaf to SIGTERM) where mkdir answers ENOENT under an existing folder.
  it('says a folder under /proc or under a file cannot be made, and exits 2', () => {
    writeFileSync(join(dir, 'a-file'), '');
    for (const [folder, code] of [
      ['/proc/arcbench-init', 'ENOENT'],
      [join(dir, 'a-file', 'lab'), 'ENOTDIR'],
    ] as const) {
      const result = spawnSync(process.execPath, [CLI, 'init', folder], { cwd: dir, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`arcbench init: cannot create ${folder} (${code}); give init another folder\n`);
    }
  });

  it('writes nothing when one of its files is there already, and exits 2', () => {
    writeFileSync(join(dir, 'my-agent.ts'), 'my own work\n');
    const result = init();
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^arcbench init: my-agent\.ts already in .*; init writes nothing over existing files: move them away, or give init another folder/,
    );
    expect(readFileSync(join(dir, 'my-agent.ts'), 'utf8')).toBe('my own work\n');
    expect(existsSync(join(dir, 'experiment.yaml'))).toBe(false);
  });
});

describe('arcbench init --python', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-init-python-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes an experiment and a my_agent.py in the official shape that run as they are', () => {
    const result = spawnSync(process.execPath, [CLI, 'init', '--python'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^wrote my_agent\.py {6}a starter agent in the official harness shape/m);
    const agent = readFileSync(join(dir, 'my_agent.py'), 'utf8');
    expect(agent).toBe(readFileSync(join(ROOT, 'templates', 'python', 'my_agent.py'), 'utf8'));
    expect(agent).toMatch(/^from agents\.agent import Agent$/m);
    expect(agent).toMatch(/^from arcengine import FrameData, GameAction, GameState$/m);
    const run = spawnSync(process.execPath, [CLI, 'run', 'experiment.yaml', '--episodes', '1', '--out', 'out'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const episodes = readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { agent: string; outcome: string });
    const mine = episodes.filter((episode) => episode.agent === 'myagent');
    expect(mine).toHaveLength(6);
    for (const episode of mine) expect(['win', 'budget', 'agent_stop']).toContain(episode.outcome);
  }, 150_000);
});
