/** What the run, validate and plan commands share: argument parsers and how a failure becomes an exit code. */
import { InvalidArgumentError } from 'commander';
import { AgentLoadError } from '../agent/pluginLoader.ts';
import { ConfigError } from '../runner/config/loader.ts';
import { isServiceFailure, RunNotStartedError } from '../runner/runNotStarted.ts';

export const EXIT_OK = 0;
/** Some episode or a scorecard close failed. */
export const EXIT_FAILED = 1;
/** Bad config or usage, or a run that could not start (the key refused, the service out of reach). */
export const EXIT_USAGE = 2;

export function integerOption(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}`);
    return n;
  };
}

/** Prints a user-facing failure and returns its exit code; anything unexpected keeps its stack. */
export function reportFailure(command: string, error: unknown): number {
  if (error instanceof ConfigError || error instanceof AgentLoadError) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof RunNotStartedError) {
    process.stderr.write(`arcbench ${command}: ${error.message}${error.runDir === undefined ? '' : ` (run.json in ${error.runDir} says so too)`}\n`);
    return EXIT_USAGE;
  }
  // The service's or the network's answer (a refused key, a host out of reach): a sentence, not a stack.
  if (isServiceFailure(error)) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`arcbench ${command}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILED;
}
