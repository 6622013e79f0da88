/**
 * `arcbench run <config>`: plays an experiment and writes its results folder. The first SIGINT or
 * SIGTERM stops scheduling, lets in-flight episodes stop at their next step, closes every scorecard and
 * writes the results; a second one exits at once.
 */
import { Command, Option } from 'commander';
import { loadExperiment } from '../runner/config/loader.ts';
import { EXIT_FAILED, EXIT_OK, integerOption, reportFailure } from './commandSupport.ts';
import { terminalProgress } from '../runner/progress.ts';
import { runExperiment } from '../runner/runExperiment.ts';

interface RunCommandOptions {
  out?: string;
  concurrency?: number;
  seed?: number;
}

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function register(program: Command): void {
  program
    .command('run')
    .description('Play an experiment (agents × games × episodes) and write its results folder.')
    .argument('<config>', 'experiment file (YAML), e.g. configs/quickstart.yaml')
    .addOption(new Option('--out <dir>', 'results folder (default: <output>/<timestamp>-<name>/ from the config)'))
    .addOption(new Option('--concurrency <n>', 'episodes in flight at once (overrides the config)').argParser(integerOption('--concurrency', 1, 1024)))
    .addOption(new Option('--seed <n>', 'run seed (overrides the config); the same seed plays the same episodes').argParser(integerOption('--seed', 0, 0xffffffff)))
    .addHelpText(
      'after',
      `
Results: run.json, episodes.jsonl, recordings/, table.md, run.log in the results folder.
Exit codes: 0 every episode ran; 1 an episode or a scorecard close failed; 2 bad config or usage, or
the run could not start (the key refused, the service out of reach); 130/143 interrupted by
SIGINT/SIGTERM (cards closed, finished episodes kept).`,
    )
    .action(async (configPath: string, options: RunCommandOptions) => {
      process.exit(await runCommand(configPath, options));
    });
}

async function runCommand(configPath: string, options: RunCommandOptions): Promise<number> {
  let experiment;
  try {
    experiment = await loadExperiment(configPath, { overrides: { seed: options.seed, concurrency: options.concurrency } });
  } catch (error) {
    return reportFailure('run', error);
  }

  const interrupt = new AbortController();
  let firstSignal: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignal !== undefined) {
      process.stderr.write(`\narcbench run: ${signal} again: exiting now without closing scorecards\n`);
      process.exit(SIGNAL_EXIT_CODES[firstSignal] ?? EXIT_FAILED);
    }
    firstSignal = signal;
    process.stderr.write(`\narcbench run: ${signal}: stopping; in-flight episodes end, scorecards close, results are written (again to exit at once)\n`);
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const tty = process.stderr.isTTY === true;
  try {
    const result = await runExperiment(experiment, {
      out: options.out,
      signal: interrupt.signal,
      consoleLog: !tty,
      progress: tty ? terminalProgress(process.stderr) : undefined,
    });
    process.stdout.write(`${result.table}\nresults: ${result.runDir}\n`);
    for (const agent of result.report.agents) if (agent.scorecard_url) process.stdout.write(`scorecard of ${agent.label}: ${agent.scorecard_url}\n`);
    const { totals, status } = result.report;
    if (totals.errors > 0 || totals.close_errors > 0) {
      process.stderr.write(`arcbench run: ${totals.errors} episode(s) failed, ${totals.close_errors} scorecard close(s) failed; see episodes.jsonl and run.log\n`);
    }
    if (status === 'interrupted') return SIGNAL_EXIT_CODES[firstSignal ?? 'SIGINT'];
    return status === 'completed' ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    return reportFailure('run', error);
  }
}
