/**
 * `arcbench resume <run-dir>`: continues a run from its folder, with the experiment that made it (the
 * file run.json names, or the flags of a config-less run). The same as `arcbench run <config> --resume
 * <run-dir>`.
 */
import { type Command, Option } from 'commander';
import type { RedisAddress } from '../scale/queue/redisAddress.ts';
import { integerOption } from './commandSupport.ts';
import { RUN_EXIT_CODES, runCommand } from './run.ts';
import { redisAddressOption } from './runOptions.ts';

interface ResumeCommandOptions {
  retryErrors?: boolean;
  concurrency?: number;
  queue?: RedisAddress;
}

export function register(program: Command): void {
  program
    .command('resume')
    .description('Continue a run from its folder: close the cards a dead run left open, play only the episodes without a finished record.')
    .argument('<run-dir>', 'the run folder (it holds run.json and episodes.jsonl)')
    .addOption(new Option('--retry-errors', 'also play again the episodes that failed (their records are kept, marked superseded)'))
    .addOption(new Option('--concurrency <n>', 'episodes in flight at once (overrides the config)').argParser(integerOption('--concurrency', 1, 1024)))
    .addOption(new Option('--queue <redis-url>', 'have `arcbench worker`s play the rest through this Redis').argParser(redisAddressOption))
    .addHelpText(
      'after',
      `
The experiment file is the one run.json names; if it moved, use: arcbench run <config> --resume <run-dir>.
Refused when the experiment changed in a way that changes its episodes (seed, games, agents, params, budgets).
${RUN_EXIT_CODES}`,
    )
    .action(async (runDir: string, options: ResumeCommandOptions) => {
      process.exit(
        await runCommand('resume', undefined, { resume: runDir, retryErrors: options.retryErrors, concurrency: options.concurrency, queue: options.queue }),
      );
    });
}
