/**
 * Test files share their worker's process and modules (`isolate: false` in vitest.config.ts: a fresh
 * process and module graph for each file had cost a fifth of the suite's CPU). Run before each file, this
 * fails the file that leaves the process changed for the next one: an environment variable set or
 * removed, another working directory, fake timers left on.
 */
import { afterAll, beforeAll, vi } from 'vitest';

let environment: Record<string, string | undefined> = {};
let workingDirectory = '';

beforeAll(() => {
  environment = { ...process.env };
  workingDirectory = process.cwd();
});

afterAll(() => {
  const names = new Set([...Object.keys(environment), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => environment[name] !== process.env[name]);
  const left: string[] = [];
  if (changed.length > 0) left.push(`environment variable(s) ${changed.join(', ')} changed; restore them in a finally or afterAll`);
  if (process.cwd() !== workingDirectory) left.push(`the working directory changed to ${process.cwd()}; change it back`);
  if (vi.isFakeTimers()) left.push('fake timers are still on; call vi.useRealTimers()');
  if (left.length > 0) throw new Error(`this test file left the shared test process changed: ${left.join('; ')}`);
});
