/**
 * `run --agent-output` shows what a Python agent prints, live on stderr, each line prefixed with its
 * agent, game and episode; without the flag those lines go to run.log only.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { copyPythonFixtures } from './support/pythonAgents.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-agent-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyPythonFixtures(dir);
writeFileSync(
  join(dir, 'chatty.yaml'),
  'name: chatty\ngames: [lamp]\nagents: [{ use: ./chatty_agent.py, label: chatty }]\nbudgets: { max_actions: 5 }\nrecordings: false\n',
);

const run = (out: string, ...flags: string[]) =>
  spawnSync(process.execPath, [ARCBENCH_BIN, 'run', join(dir, 'chatty.yaml'), '--out', join(dir, out), ...flags], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: dir,
  });

describe("an agent process's own output", () => {
  it('is shown live with --agent-output, prefixed with agent, game and episode', () => {
    const result = run('shown', '--agent-output');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^chatty lamp-[0-9a-f]+#0: frames so far: \d+; state /m);
    expect(result.stderr).toMatch(/^chatty lamp-[0-9a-f]+#0: stderr line y+/m);
  });

  it('stays in run.log only without the flag', () => {
    const result = run('quiet');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/frames so far/);
    expect(readFileSync(join(dir, 'quiet', 'run.log'), 'utf8')).toMatch(/frames so far/);
  });
});
