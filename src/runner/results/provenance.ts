/**
 * Where a run came from: arcbench's version (and its git state when it runs from a checkout of itself),
 * the git state of the experiment's folder, Node and platform, the seed.
 */
import type { GitState, Provenance } from '../../runfolder/runReport.ts';
export type { Provenance } from '../../runfolder/runReport.ts';
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PACKAGE_ROOT, packageManifest } from '../../packageFiles.ts';

const execFileAsync = promisify(execFile);

/**
 * Asynchronous: forking git from a process the size of a run took 10–15 ms a call with execFileSync,
 * five calls a run, all of it on the thread that plays.
 */
async function git(folder: string, args: string[]): Promise<string | null> {
  try {
    return (await execFileAsync('git', args, { cwd: folder, encoding: 'utf8', timeout: 5000 })).stdout.trim();
  } catch {
    return null; // no git, or not inside a repository
  }
}

/**
 * The commit `folder` is in, and whether a tracked file differs from it, from one `git status`: its
 * `# branch.oid` header names the commit (`(initial)` before the first one). Untracked files do not
 * count: results folders (this run's among them) are untracked and say nothing about the code that ran.
 */
export async function gitState(folder: string): Promise<GitState> {
  const status = await git(folder, ['status', '--porcelain=v2', '--branch', '--untracked-files=no']);
  const lines = status === null ? [] : status.split('\n');
  const oid = lines.find((line) => line.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
  if (oid === undefined || oid === '(initial)') return { sha: null, dirty: null };
  return { sha: oid, dirty: lines.some((line) => line !== '' && !line.startsWith('#')) };
}

/**
 * arcbench's own git state, only when its package folder is the top of a repository (a checkout of
 * arcbench). An installed copy sits in node_modules of the user's repository, whose state is not ours.
 */
async function readArcbenchGitState(): Promise<GitState | null> {
  const root = realpathSync(fileURLToPath(PACKAGE_ROOT));
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  return top !== null && realpathSync(top) === root ? gitState(root) : null;
}

/** Read once a process: the arcbench that runs is the code it loaded, whatever its files become later. */
let arcbenchGitState: Promise<GitState | null> | undefined;

/** `experimentFolder`: the experiment file's folder (or, for a config built in code, its base folder). */
export async function collectProvenance(seed: number, target: string, experimentFolder: string): Promise<Provenance> {
  arcbenchGitState ??= readArcbenchGitState();
  const [arcbench_git, experiment_git] = await Promise.all([arcbenchGitState, gitState(experimentFolder)]);
  return {
    arcbench_version: packageManifest().version,
    arcbench_git,
    experiment_git: { folder: experimentFolder, ...experiment_git },
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    seed,
    target,
    argv: process.argv.slice(2),
  };
}
