/** Temporary folders for tests, removed when the test that made them finishes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new empty folder `arcbench-<name>-XXXXXX` in the temporary directory, removed when the current test
 * finishes, passed or failed. Call it inside a test; a folder shared by a file's tests is made at the top
 * and removed in afterAll.
 */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arcbench-${name}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
