/**
 * The runner knows no agent's parameter names (DESIGN.md, "Agents describe themselves"): what it must
 * know of an agent it asks the agent's description. The llm agent's timeout and retries are named in
 * agents/llm only; `max_retries` in src/ is the experiment's own `timeouts` key (the retries of requests
 * to the service), never an agent's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import llm from '../agents/llm.ts';

const SRC = join(import.meta.dirname, '..', 'src');

/** `file: line` for every line of src/ that matches. */
function linesOf(pattern: RegExp): string[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(ts|js)$/.test(name));
  return files.flatMap((name) =>
    readFileSync(join(SRC, name), 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => `${relative(SRC, join(SRC, name))}: ${line.trim()}`),
  );
}

describe('the runner and the agents it runs', () => {
  it("names neither the llm agent's request timeout nor its retries anywhere in src/", () => {
    expect(linesOf(/request_timeout_seconds/)).toEqual([]);
    expect(linesOf(/max_retries/).sort()).toEqual([
      'runner/config/schema.ts: max_retries: z.int().min(0).optional(),',
      'runner/targets.ts: ...(config.timeouts?.max_retries === undefined ? {} : { maxRetries: config.timeouts.max_retries }),',
    ]);
  });

  it("estimates a plan and warns of a long decision without a single one of the llm agent's param names", () => {
    const names = Object.keys((llm.params as unknown as { shape: Record<string, unknown> }).shape).filter((name) => name.includes('_'));
    expect(names).toContain('frame_format');
    for (const file of ['runner/planEstimate.ts', 'runner/idleCloseWarning.ts', 'runner/agentDescription.ts']) {
      const text = readFileSync(join(SRC, file), 'utf8');
      expect(
        names.filter((name) => text.includes(name)),
        file,
      ).toEqual([]);
    }
  });
});
