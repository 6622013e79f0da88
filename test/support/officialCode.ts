/**
 * The official ARC-AGI-3 code (harness, arcengine, toolkit), laid beside the repository as
 * `../shared/official` (CI clones the repository next to a copy of shared/). The repository's root is
 * the main working tree's, so a git worktree finds the same folder its clone does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function repositoryRoot(): string {
  const here = join(import.meta.dirname, '..', '..');
  const commonDir = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: here, encoding: 'utf8' }).trim();
  return dirname(commonDir);
}

export const OFFICIAL_CODE = join(repositoryRoot(), '..', 'shared', 'official');
if (!existsSync(OFFICIAL_CODE)) throw new Error(`the official ARC-AGI-3 code is not at ${OFFICIAL_CODE}; put a copy of shared/official beside the repository`);

export const OFFICIAL_HARNESS = join(OFFICIAL_CODE, 'ARC-AGI-3-Agents');
export const OFFICIAL_TEMPLATES = join(OFFICIAL_HARNESS, 'agents', 'templates');
/** Folders to put on PYTHONPATH for the real packages. */
export const REAL_ARCENGINE = join(OFFICIAL_CODE, 'arcengine-0.9.3');
export const REAL_TOOLKIT = join(OFFICIAL_CODE, 'arc-agi-toolkit');

/** Whether python3 can import what the real arcengine needs (numpy 2 and pydantic 2). */
export function pythonHasRealEngineDependencies(): boolean {
  try {
    execFileSync('python3', ['-c', 'import numpy, pydantic'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
