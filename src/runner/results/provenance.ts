/**
 * Where a run came from: arcbench's version (and its git state when it runs from a checkout of itself),
 * the git state of the experiment's folder, Node and platform, the seed.
 */
import type { GitState, Provenance } from './runReport.ts';
export type { Provenance } from './runReport.ts';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT, packageManifest } from '../../packageFiles.ts';

function git(folder: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null; // no git, or not inside a repository
  }
}

/**
 * The commit `folder` is in, and whether a tracked file differs from it. Untracked files do not count:
 * results folders (this run's among them) are untracked and say nothing about the code that ran.
 */
export function gitState(folder: string): GitState {
  const sha = git(folder, ['rev-parse', 'HEAD']);
  const changes = sha === null ? null : git(folder, ['status', '--porcelain', '--untracked-files=no']);
  return { sha, dirty: changes === null ? null : changes.length > 0 };
}

/**
 * arcbench's own git state, only when its package folder is the top of a repository (a checkout of
 * arcbench). An installed copy sits in node_modules of the user's repository, whose state is not ours.
 */
function arcbenchGitState(): GitState | null {
  const root = realpathSync(fileURLToPath(PACKAGE_ROOT));
  const top = git(root, ['rev-parse', '--show-toplevel']);
  return top !== null && realpathSync(top) === root ? gitState(root) : null;
}

/** `experimentFolder`: the experiment file's folder (or, for a config built in code, its base folder). */
export function collectProvenance(seed: number, target: string, experimentFolder: string): Provenance {
  return {
    arcbench_version: packageManifest().version,
    arcbench_git: arcbenchGitState(),
    experiment_git: { folder: experimentFolder, ...gitState(experimentFolder) },
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    seed,
    target,
    argv: process.argv.slice(2),
  };
}
