/**
 * Python agents for tests: the fixtures (test/fixtures/python) copied into a test's own folder, so the
 * processes a test starts carry its folder in their command line and can be counted (no orphan may
 * outlive a run).
 */
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { readRecording } from '../../src/recording/recordingReader.ts';

export const PYTHON_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'python');

/** Copies the Python fixtures into `dir`. */
export function copyPythonFixtures(dir: string): void {
  cpSync(PYTHON_FIXTURES, dir, { recursive: true, filter: (source) => !source.includes('__pycache__') });
}

/** Live processes whose command line mentions `marker` (a test's folder), ps itself left out. */
export function processesMentioning(marker: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.includes(marker) && !/\bps -eo\b/.test(line))
    .filter((line) => !/^\s*\d+\s+Z/.test(line));
}

/** The action inputs of a recording, in order (the first is the opening RESET). */
export async function recordedActions(path: string): Promise<{ id: number; data?: Record<string, unknown>; reasoning?: unknown }[]> {
  const actions = [];
  for await (const entry of readRecording(path)) actions.push(entry.data.action_input);
  return actions;
}
