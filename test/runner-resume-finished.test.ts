/**
 * `arcbench resume` of a run that played its whole plan: it says there is nothing left to play, exits
 * 0, and leaves every file of the folder as it was (no new attempt, no rewritten manifest).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-resume-finished-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const arcbench = (...args: string[]) => spawnSync(process.execPath, [ARCBENCH_BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

/** Every file of the folder with its SHA-256. */
function contents(folder: string): Record<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [path.slice(folder.length), createHash('sha256').update(readFileSync(path)).digest('hex')];
    }),
  );
}

describe('resume of a completed run', () => {
  it('says nothing is left to play, exits 0 and changes nothing', () => {
    const out = join(dir, 'run');
    expect(arcbench('run', '--agent', 'random', '--game', 'lamp', '--max-actions', '5', '--out', out).status).toBe(0);
    const before = contents(out);
    const resumed = arcbench('resume', out);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(
      'nothing left to play; every planned episode (1) has its record and the run is completed, so the folder is left unchanged',
    );
    expect(contents(out)).toEqual(before);
  });
});
