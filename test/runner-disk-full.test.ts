/**
 * A full disk under the run folder (a real tmpfs of 300 kB, mounted for the test): the run stops in
 * order, closes its cards, says why in one sentence and exits 1; the failed writes are the disk's
 * (`disk:`), never blamed on the agent; no stack trace. Mounting needs root (CI runs as root); where it
 * cannot mount, the suite says so and does not run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-disk-full-'));
const disk = join(dir, 'disk');
mkdirSync(disk);
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=300k', 'tmpfs', disk]).status === 0;
if (!mounted) console.warn('runner-disk-full: cannot mount a tmpfs here (it needs root), so the full-disk run is not played');
afterAll(() => {
  if (mounted) spawnSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!mounted)('a run whose disk fills up', () => {
  let result: ReturnType<typeof spawnSync>;
  beforeAll(() => {
    writeFileSync(
      join(dir, 'full.yaml'),
      'name: full\ngames: [lamp, crat]\nagents: [{ use: random }]\nepisodes: 3\nbudgets: { max_actions: 300 }\nrecordings: jsonl\n',
    );
    result = spawnSync(process.execPath, [ARCBENCH_BIN, 'run', join(dir, 'full.yaml'), '--out', join(disk, 'run')], { encoding: 'utf8', timeout: 60_000 });
  });

  it('stops in order: its cards closed, one sentence, exit 1, no stack trace', () => {
    const stderr = String(result.stderr);
    expect(result.status).toBe(1);
    expect(stderr).toMatch(/scorecard closed agent=random/);
    expect(stderr).toMatch(
      /arcbench run: a write to the run folder failed \(.*ENOSPC.*\): the run stopped, its cards closed; free some space, then `arcbench resume` plays what is left/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('blames the disk, never the agent', () => {
    const stderr = String(result.stderr);
    expect(stderr).toMatch(/error="disk: cannot write/);
    expect(stderr).not.toMatch(/error="agent: cannot write/);
  });
});
