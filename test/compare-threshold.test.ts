// The gate's default threshold as a CI user meets it: a paired rerun 0.01 points worse on every
// episode (a deterministic agent's drift: its interval is the difference itself) does not fail the build
// by default; --threshold 0 asks for that, and a difference past the default still fails.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArcbench } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

/** The run folder's episodes.jsonl with `by` added to every episode's score. */
function shiftScores(runDir: string, by: number): void {
  const path = join(runDir, 'episodes.jsonl');
  const lines = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  for (const line of lines) if (typeof line.score === 'number') line.score += by;
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

describe('--fail-on-regression without --threshold', () => {
  it('passes a 0.01-point drift, fails it under --threshold 0, and fails a 5-point drop; the help says why', async () => {
    const dir = tempDir('threshold');
    writeFileSync(
      join(dir, 'exp.yaml'),
      'name: gate\ngames: [slid]\nagents: [{ use: random }]\nepisodes: 3\nbudgets: { max_actions: 10 }\nrecordings: false\n',
    );
    const run = await runArcbench(['run', 'exp.yaml', '--out', 'candidate'], dir);
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'candidate', 'episodes.jsonl'), 'utf8');
    expect(lines).toContain('"score":');
    for (const [name, by] of [
      ['drift', 0.01],
      ['drop', 5],
    ] as const) {
      cpSync(join(dir, 'candidate'), join(dir, name), { recursive: true });
      shiftScores(join(dir, name), by);
    }

    const drift = await runArcbench(['compare', 'drift', 'candidate', '--fail-on-regression'], dir);
    expect(drift.stdout).toContain('worse');
    expect(drift.code, drift.stdout).toBe(0);
    expect((await runArcbench(['compare', 'drift', 'candidate', '--fail-on-regression', '--threshold', '0'], dir)).code).toBe(1);
    expect((await runArcbench(['compare', 'drop', 'candidate', '--fail-on-regression'], dir)).code).toBe(1);

    const help = await runArcbench(['compare', '--help'], dir);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(default 1: a smaller drift of a deterministic agent is not worth a red build; 0 fails on any)');
  }, 60_000);
});
