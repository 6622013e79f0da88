/**
 * `arcbench worker --queue redis://host:port`: plays episodes of runs queued with `arcbench run
 * <config> --queue …`, on as many machines as there are workers. The first SIGINT or SIGTERM lets the
 * episodes in flight finish, closes this worker's cards and exits; a second exits at once (the
 * episodes it held are played again by another worker, from a new RESET).
 */
import { type Command, Option } from 'commander';
import { createRunLogger } from '../runner/results/runLogger.ts';
import { parseRedisAddress, type RedisAddress } from '../scale/queue/redisAddress.ts';
import { serveRuns } from '../scale/queue/workerLoop.ts';
import { EXIT_FAILED, EXIT_OK, integerOption } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';

interface WorkerCommandOptions {
  queue: string;
  concurrency: number;
  recordingsDir?: string;
  stallMs: number;
  once?: boolean;
}

const DEFAULT_STALL_MS = 30_000;

export function register(program: Command): void {
  program
    .command('worker')
    .description('Play episodes of runs queued in Redis by `arcbench run <config> --queue …` (start any number, on any machines).')
    .requiredOption('--queue <url>', 'the Redis the coordinator queued the run in, e.g. redis://10.0.0.5:6379')
    .addOption(new Option('--concurrency <n>', 'episodes this worker plays at once').default(4).argParser(integerOption('--concurrency', 1, 1024)))
    .addOption(
      new Option(
        '--recordings-dir <dir>',
        'folder holding the run folders, shared with the coordinator (its `output`); recordings go to <dir>/<run folder>/recordings/ (default: none)',
      ),
    )
    .addOption(
      new Option('--stall-ms <ms>', 'a job whose worker has not renewed its lock this long is handed to another worker')
        .default(DEFAULT_STALL_MS)
        .argParser(integerOption('--stall-ms', 500, 3_600_000)),
    )
    .addOption(new Option('--once', 'exit when the first run this worker joined has ended'))
    .addHelpText(
      'after',
      `
Workers run from the same checkout as the coordinator: agent plugins are loaded from the experiment
file's folder, and \${VAR} in it (an API key) is read from this worker's environment.
Exit codes: 0 left cleanly; 1 Redis failed; 2 bad usage.`,
    )
    .action(async (options: WorkerCommandOptions) => {
      process.exit(await workerCommand(options));
    });
}

async function workerCommand(options: WorkerCommandOptions): Promise<number> {
  let address: RedisAddress;
  try {
    address = parseRedisAddress(options.queue);
  } catch (error) {
    return reportFailure('worker', error);
  }
  const logger = createRunLogger(undefined, { console: process.stderr, level: 'info' });
  const leave = new AbortController();
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stderr.write(`\narcbench worker: ${signal} again: exiting now; the episodes in flight are played again by another worker\n`);
      process.exit(EXIT_FAILED);
    }
    signalled = true;
    process.stderr.write(`\narcbench worker: ${signal}: finishing the episodes in flight, closing this worker's cards (again to exit at once)\n`);
    leave.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await serveRuns({
      address,
      concurrency: options.concurrency,
      recordingsDir: options.recordingsDir,
      stallMs: options.stallMs,
      once: options.once === true,
      signal: leave.signal,
      logger,
    });
    return EXIT_OK;
  } catch (error) {
    return reportFailure('worker', error);
  }
}
