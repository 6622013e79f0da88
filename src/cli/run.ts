/**
 * `arcbench run <config>`: plays an experiment and writes its results folder; with `--resume <dir>`
 * it continues that folder's run instead (`arcbench resume <dir>` is the same without naming the
 * config). The first SIGINT or SIGTERM stops scheduling, lets in-flight episodes stop at their next
 * step, closes every scorecard and writes the results; a second one exits at once.
 */
import { Command, Option } from 'commander';
import type { Experiment } from '../runner/config/loader.ts';
import { loadExperiment } from '../runner/config/loader.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, EXIT_CODES_HELP, integerOption, reportFailure } from './commandSupport.ts';
import { terminalProgress } from '../runner/progress.ts';
import { loadExperimentForResume } from '../runner/resume/loadForResume.ts';
import { unplayedSentence } from '../runner/results/runCompleteness.ts';
import { type RunOptions, runExperiment } from '../runner/runExperiment.ts';

export interface RunCommandOptions {
  out?: string;
  concurrency?: number;
  seed?: number;
  resume?: string;
  retryErrors?: boolean;
  force?: boolean;
}

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function register(program: Command): void {
  program
    .command('run')
    .description('Play an experiment (agents × games × episodes) and write its results folder, or resume one.')
    .argument('<config>', 'experiment file (YAML), e.g. configs/quickstart.yaml')
    .addOption(new Option('--out <dir>', 'results folder (default: <output>/<timestamp>-<name>/ from the config); a used folder is refused'))
    .addOption(new Option('--force', 'with --out: move a used folder aside (renamed to <dir>.moved-<time>, never deleted)'))
    .addOption(new Option('--resume <run-dir>', 'continue the run in this folder: play only the episodes it has no finished record of'))
    .addOption(new Option('--retry-errors', 'with --resume: also play again the episodes that failed (their records are kept, marked superseded)'))
    .addOption(new Option('--concurrency <n>', 'episodes in flight at once (overrides the config)').argParser(integerOption('--concurrency', 1, 1024)))
    .addOption(new Option('--seed <n>', 'run seed (overrides the config); the same seed plays the same episodes').argParser(integerOption('--seed', 0, 0xffffffff)))
    .addHelpText('after', `\nResults: run.json, episodes.jsonl, recordings/, table.md, run.log in the results folder.\n${EXIT_CODES_HELP}`)
    .action(async (configPath: string, options: RunCommandOptions) => {
      process.exit(await runCommand('run', configPath, options));
    });
}

/** Usage problems of the option combination, as a sentence; undefined when fine. */
function optionProblem(options: RunCommandOptions): string | undefined {
  if (options.retryErrors && options.resume === undefined) return '--retry-errors replays the failed episodes of a run: use it with --resume <run-dir>';
  if (options.resume !== undefined && options.out !== undefined) return '--resume continues the folder it names; leave out --out';
  if (options.resume !== undefined && options.force) return '--force starts a new run in a used folder; it does not go with --resume';
  if (options.force && options.out === undefined) return '--force moves a used --out folder aside; name the folder with --out';
  return undefined;
}

async function load(configPath: string | undefined, options: RunCommandOptions): Promise<Experiment> {
  const overrides = { seed: options.seed, concurrency: options.concurrency };
  if (options.resume !== undefined) return loadExperimentForResume(options.resume, { configPath, overrides });
  return loadExperiment(configPath!, { overrides });
}

/** `run` and `resume` both end here; `configPath` undefined: the config the resumed run names. */
export async function runCommand(command: string, configPath: string | undefined, options: RunCommandOptions): Promise<number> {
  const problem = optionProblem(options);
  if (problem !== undefined) {
    process.stderr.write(`arcbench ${command}: ${problem}\n`);
    return EXIT_USAGE;
  }
  let experiment: Experiment;
  try {
    experiment = await load(configPath, options);
  } catch (error) {
    return reportFailure(command, error);
  }

  const interrupt = new AbortController();
  let firstSignal: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignal !== undefined) {
      process.stderr.write(`\narcbench ${command}: ${signal} again: exiting now without closing scorecards\n`);
      process.exit(SIGNAL_EXIT_CODES[firstSignal] ?? EXIT_FAILED);
    }
    firstSignal = signal;
    process.stderr.write(`\narcbench ${command}: ${signal}: stopping; in-flight episodes end, scorecards close, results are written (again to exit at once)\n`);
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const tty = process.stderr.isTTY === true;
  const runOptions: RunOptions = {
    ...(options.resume === undefined
      ? { out: options.out, force: options.force, overrides: { ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }) } }
      : { resume: { runDir: options.resume, retryErrors: options.retryErrors ?? false } }),
    signal: interrupt.signal,
    consoleLog: !tty,
    progress: tty ? terminalProgress(process.stderr) : undefined,
  };
  try {
    const result = await runExperiment(experiment, runOptions);
    for (const note of result.notes) process.stderr.write(`arcbench ${command}: ${note}\n`);
    process.stdout.write(`${result.table}\nresults: ${result.runDir}\n`);
    return exitLine(command, result.report, result.runDir, firstSignal);
  } catch (error) {
    return reportFailure(command, error);
  }
}

/** The exit line (what failed, what is left to play) and the exit code. */
function exitLine(command: string, report: Awaited<ReturnType<typeof runExperiment>>['report'], runDir: string, firstSignal: string | undefined): number {
  const { totals, status } = report;
  if (totals.errors > 0 || totals.close_errors > 0) {
    process.stderr.write(`arcbench ${command}: ${totals.errors} episode(s) failed, ${totals.close_errors} scorecard close(s) failed; see episodes.jsonl and run.log\n`);
  }
  const unplayed = unplayedSentence(report, runDir);
  if (unplayed !== undefined) process.stderr.write(`arcbench ${command}: ${unplayed}\n`);
  if (status === 'interrupted') return SIGNAL_EXIT_CODES[firstSignal ?? 'SIGINT'];
  if (status === 'partial') return EXIT_PARTIAL;
  return status === 'completed' ? EXIT_OK : EXIT_FAILED;
}
