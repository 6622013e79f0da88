/** Where a run came from: code version (git sha, dirty), package and Node versions, the seed. */
import type { Provenance } from './runReport.ts';
export type { Provenance } from './runReport.ts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return null; // not a checkout (an installed package): provenance says so with nulls
  }
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('package.json', `file://${PACKAGE_ROOT}`), 'utf8')) as { version: string }).version;
}

export function collectProvenance(seed: number, target: string): Provenance {
  const sha = git(['rev-parse', 'HEAD']);
  const status = sha === null ? null : git(['status', '--porcelain']);
  return {
    git: { sha, dirty: status === null ? null : status.length > 0 },
    arcbench_version: packageVersion(),
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    seed,
    target,
    argv: process.argv.slice(2),
  };
}
