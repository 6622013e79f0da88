// run.json's provenance: arcbench's version from its own package.json, arcbench's git state only for
// a checkout of arcbench, and the git state of the experiment's folder (the user's repository) as the
// experiment's. The installed package is checked end to end in test/package.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectProvenance, gitState } from '../src/runner/results/provenance.ts';

const ROOT = join(import.meta.dirname, '..');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

describe('provenance', () => {
  let dir: string;
  let repo: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-provenance-'));
    repo = join(dir, 'repo');
    mkdirSync(join(repo, 'experiments'), { recursive: true });
    writeFileSync(join(repo, 'experiments', 'exp.yaml'), 'name: x\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("records the experiment folder's commit, clean though results are written beside it", async () => {
    mkdirSync(join(repo, 'results', 'run-1'), { recursive: true });
    writeFileSync(join(repo, 'results', 'run-1', 'run.json'), '{}');
    const provenance = await collectProvenance(3, 'in-process', join(repo, 'experiments'));
    expect(provenance.experiment_git).toEqual({ folder: join(repo, 'experiments'), sha: git(repo, 'rev-parse', 'HEAD'), dirty: false });
  });

  it('calls the experiment dirty when a tracked file changed', async () => {
    writeFileSync(join(repo, 'experiments', 'exp.yaml'), 'name: changed\n');
    expect(await gitState(repo)).toEqual({ sha: git(repo, 'rev-parse', 'HEAD'), dirty: true });
  });

  it('records nulls for a repository without a commit yet', async () => {
    const fresh = join(dir, 'fresh');
    mkdirSync(fresh);
    git(fresh, 'init', '-q');
    expect(await gitState(fresh)).toEqual({ sha: null, dirty: null });
  });

  it('records nulls for a folder outside any repository', async () => {
    const outside = join(dir, 'plain');
    mkdirSync(outside);
    expect(await gitState(outside)).toEqual({ sha: null, dirty: null });
  });

  it("records arcbench's own version, and its commit as arcbench's, not the experiment's", async () => {
    const provenance = await collectProvenance(3, 'in-process', join(repo, 'experiments'));
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(provenance.arcbench_version).toBe(manifest.version);
    // These tests run in a checkout of arcbench: its state is recorded beside, never instead of, the experiment's.
    expect(provenance.arcbench_git?.sha).toBe(git(ROOT, 'rev-parse', 'HEAD'));
    expect(provenance.arcbench_git?.sha).not.toBe(provenance.experiment_git.sha);
    expect(provenance).toMatchObject({ seed: 3, target: 'in-process', node_version: process.version });
  });
});
