/** `arcbench` as a user runs it: a real child process, its output collected, its exit awaited. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The built CLI, which the global setup (builtCli.ts) keeps up to date with the sources: what an installed
 * package runs, and a third cheaper to start than bin/arcbench.js, which goes through tsx.
 */
export const ARCBENCH_BIN = join(import.meta.dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

export interface ArcbenchProcess {
  readonly child: ChildProcess;
  /** Exit code, or the signal's name when a signal ended it. */
  readonly exited: Promise<number | string>;
  output(): { stdout: string; stderr: string };
}

export function startArcbench(args: readonly string[], cwd: string): ArcbenchProcess {
  const child = spawn(process.execPath, [ARCBENCH_BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Runs arcbench to its end. */
export async function runArcbench(args: readonly string[], cwd: string): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const run = startArcbench(args, cwd);
  const code = await run.exited;
  return { code, ...run.output() };
}

/** Polls until `check` holds (or throws after `timeoutMs`, saying what it waited for). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
