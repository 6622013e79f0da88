/** How a failure of run, validate, plan or compare reaches the user: a sentence on stderr and an exit code. */
import { AgentLoadError } from '../agent/pluginLoader.ts';
import { RunsNotComparableError } from '../analysis/compareRuns.ts';
import { isArcbenchError } from '../errors.ts';
import { ConfigError } from '../runner/config/loader.ts';
import { RunFolderError } from '../runfolder/runReport.ts';
import { isServiceFailure, RunNotStartedError } from '../runner/runNotStarted.ts';
import { EXIT_FAILED, EXIT_USAGE } from './commandSupport.ts';
import { OutputPathError } from './outputPath.ts';

/**
 * Prints a user-facing failure and returns its exit code. Anything unexpected is a bug of arcbench's: a
 * sentence that says so, and its stack only when ARCBENCH_DEBUG asks for it (a user never meets one).
 */
export function reportFailure(command: string, error: unknown): number {
  // Bad input of the user's (a config, a plugin, a run folder, runs that share nothing): exit 2.
  if (
    error instanceof ConfigError ||
    error instanceof AgentLoadError ||
    error instanceof RunFolderError ||
    error instanceof RunsNotComparableError ||
    error instanceof OutputPathError
  ) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  // A resume of a finished run: nothing to do is not a failure.
  if (isArcbenchError(error) && error.code === 'NOTHING_TO_RESUME') {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return 0;
  }
  // Official games that cannot be played (no arcengine, a game that does not import, a malformed
  // metadata.json): found before anything is played, and the user's to fix.
  if (isArcbenchError(error) && (error.code === 'GAMES_ENGINE_MISSING' || error.code === 'GAMES_LOAD')) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  // A plan over its dollar budget: refused before a single call, as a run that could not start.
  if (isArcbenchError(error) && error.code === 'ESTIMATE_OVER_BUDGET') {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  // A run that could not start, or the service's or the network's answer (a refused key, a host out of
  // reach): nothing was played, so a sentence and exit 2, not a stack.
  if (error instanceof RunNotStartedError) {
    process.stderr.write(`arcbench ${command}: ${error.message}${error.runDir === undefined ? '' : ` (run.json in ${error.runDir} says so too)`}\n`);
    return EXIT_USAGE;
  }
  if (isServiceFailure(error)) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  // Our own errors of the world outside (Redis not reachable, a queued run gone): a sentence is enough.
  if (isArcbenchError(error)) {
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    return EXIT_FAILED;
  }
  process.stderr.write(`arcbench ${command}: ${unexpected(error)}\n`);
  return EXIT_FAILED;
}

function unexpected(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (process.env.ARCBENCH_DEBUG && error instanceof Error && error.stack) return error.stack;
  return `${message} (an unexpected failure inside arcbench; run again with ARCBENCH_DEBUG=1 to see where, and report it)`;
}
