/** What the run, validate and plan commands share: argument parsers and how a failure becomes an exit code. */
import { InvalidArgumentError } from 'commander';
import { AgentLoadError } from '../agent/pluginLoader.ts';
import { ConfigError } from '../runner/config/loader.ts';
import { RunFolderError } from '../runner/results/runReport.ts';

export const EXIT_OK = 0;
/** Some episode or a scorecard close failed. */
export const EXIT_FAILED = 1;
/** Bad config or usage (a used or changed run folder included). */
export const EXIT_USAGE = 2;
/** The run stopped on its run_seconds before every planned episode was played; resume plays the rest. */
export const EXIT_PARTIAL = 3;

/** The exit codes of `run` and `resume`, for their --help. */
export const EXIT_CODES_HELP = `Exit codes: 0 every planned episode ran; 1 an episode or a scorecard close failed; 2 bad config or usage
(also a used --out, or a run folder whose experiment changed); 3 partial: stopped on run_seconds, resume plays
the rest; 130/143 interrupted by SIGINT/SIGTERM (cards closed, finished episodes kept, resume plays the rest).`;

export function integerOption(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}`);
    return n;
  };
}

/** Prints a user-facing failure and returns its exit code; anything unexpected keeps its stack. */
export function reportFailure(command: string, error: unknown): number {
  if (error instanceof ConfigError || error instanceof AgentLoadError || error instanceof RunFolderError) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`arcbench ${command}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILED;
}
