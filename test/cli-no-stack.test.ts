/**
 * No command prints a stack trace to a user: a base_url without its scheme (the usual Ollama slip), a
 * plugin whose params schema throws, and any failure arcbench did not expect all end in one sentence.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportFailure } from '../src/cli/reportFailure.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-no-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validate(name: string, yaml: string): { status: number | null; stderr: string } {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  const result = spawnSync(process.execPath, [ARCBENCH_BIN, 'validate', file], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ARCBENCH_DEBUG: '' },
  });
  return { status: result.status, stderr: result.stderr };
}

describe('a failure is a sentence, never a stack trace', () => {
  it('a base_url without its scheme is a config error that shows the form to write', () => {
    const { status, stderr } = validate(
      'ollama',
      'name: t\ngames: [lamp]\nagents:\n  - use: llm\n    params: { model: m, base_url: "127.0.0.1:11434/v1", api_key: none }\n',
    );
    expect(status).toBe(2);
    expect(stderr).toContain(
      'agents[0].params.base_url: expected the API base URL with its scheme, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1',
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("a plugin's params schema that throws is named in a sentence", () => {
    writeFileSync(
      join(dir, 'thrower.mjs'),
      "import { defineAgent, z } from 'arcbench';\n" +
        "export default defineAgent({ name: 'thrower', params: z.strictObject({ n: z.number().default(1) }).superRefine(() => { throw new TypeError('boom inside the check'); }), create: () => ({ act: () => ({ stop: true }) }) });\n",
    );
    const { status, stderr } = validate('thrower', 'name: t\ngames: [lamp]\nagents:\n  - use: ./thrower.mjs\n');
    expect(status).toBe(2);
    expect(stderr).toContain('agents[0].params: agent "thrower" could not check its params: boom inside the check');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('an agent program without the execute bit is named as such, with the chmod that fixes it', () => {
    writeFileSync(join(dir, 'agent.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const { status, stderr } = validate('noexec', 'name: t\ngames: [lamp]\nagents: [{ use: ./agent.sh }]\n');
    expect(status).toBe(2);
    expect(stderr).toContain(`agent file ${join(dir, 'agent.sh')} is not executable`);
    expect(stderr).toContain(`chmod +x ${join(dir, 'agent.sh')}`);
    expect(stderr).not.toContain('Unknown file extension');
  });

  it('an unexpected failure says it is one and how to see where, without its stack', () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    const debug = process.env.ARCBENCH_DEBUG;
    delete process.env.ARCBENCH_DEBUG;
    try {
      expect(reportFailure('run', new TypeError('cannot read x of undefined'))).toBe(1);
    } finally {
      process.stderr.write = write;
      if (debug !== undefined) process.env.ARCBENCH_DEBUG = debug;
    }
    expect(written.join('')).toBe(
      'arcbench run: cannot read x of undefined (an unexpected failure inside arcbench; run again with ARCBENCH_DEBUG=1 to see where, and report it)\n',
    );
  });
});
