/**
 * The results table fits the terminal: on a terminal narrower than the full table (133 columns and
 * more) `run` prints a compact one and says table.md holds every column; a pipe (CI logs) still gets
 * the full table. The terminal is a real pseudo-terminal of util-linux's `script`, sized with stty.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-table-width-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasScript = spawnSync('script', ['--version']).status === 0;
const widest = (text: string) => Math.max(...text.split(/\r?\n/).map((line) => [...line].length));
const runArgs = (out: string) => [ARCBENCH_BIN, 'run', '--agent', 'random', '--game', 'lamp', '--max-actions', '5', '--out', join(dir, out)];

describe.skipIf(!hasScript)('the results table on a terminal (util-linux script makes the terminal)', () => {
  it('is narrowed to a terminal of 90 columns, and says where the full one is', () => {
    const command = `stty cols 90 rows 40; ${[process.execPath, ...runArgs('narrow')].map((part) => JSON.stringify(part)).join(' ')}`;
    const result = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stdout).toBe(0);
    // The pseudo-terminal carries stderr too (the live line); the table is its lines drawn in boxes.
    const table = result.stdout
      .split(/\r?\n/)
      .filter((line) => /^[┌│├└]/.test(line))
      .join('\n');
    expect(table).toContain('random');
    expect(widest(table)).toBeLessThanOrEqual(90);
    expect(result.stdout).toContain("(the table is narrowed to the terminal's 90 columns; table.md holds every column)");
    expect(widest(readFileSync(join(dir, 'narrow', 'table.md'), 'utf8'))).toBeGreaterThan(90);
  });

  it('stays whole in a pipe', () => {
    const result = spawnSync(process.execPath, runArgs('piped'), { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeGreaterThan(90);
    expect(result.stdout).not.toContain('narrowed');
  });
});
