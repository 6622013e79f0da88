/**
 * Global setup: the CLI the tests spawn is the build (dist/src/cli/main.js), the very command an installed
 * package runs, built here first when any source changed since the last build. Through tsx instead
 * (bin/arcbench.js), every child paid about 0.35 s more CPU to route each of its ~350 modules through
 * tsx's loader thread, and the suite spawns a few hundred: a fifth of its CPU time, measured 2026-11-26.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIsFresh } from './freshBuild.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export default function setup(): void {
  if (buildIsFresh(ROOT)) return;
  process.stderr.write('building dist/ (npm run build): the tests spawn the built CLI, and a source changed since it was built\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
