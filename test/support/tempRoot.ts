/**
 * Global setup of the test run: the run gets a temporary directory of its own (TMPDIR, TMP and TEMP, which
 * the test workers and the CLIs they spawn inherit), removed at the end. A test that leaves an
 * `arcbench-*` folder in it fails the run with the folder's name, instead of filling a /tmp that several
 * people share; and folders of other runs on the same machine are never counted.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

export default function setup(): () => void {
  const before = Object.fromEntries(TEMP_VARIABLES.map((name) => [name, process.env[name]]));
  const root = mkdtempSync(join(tmpdir(), 'arcbench-test-run-'));
  for (const name of TEMP_VARIABLES) process.env[name] = root;
  return () => {
    for (const name of TEMP_VARIABLES) {
      const value = before[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = readdirSync(root).filter((entry) => entry.startsWith('arcbench-'));
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest only logs an error thrown here and still exits 0: set the exit code too.
      process.exitCode = 1;
      throw new Error(
        `tests left ${left.length} temporary folder(s) behind: ${left.join(', ')}; make each with tempDir() of test/support/tempDir.ts, or remove it in afterEach/afterAll`,
      );
    }
  };
}
