/**
 * `arcbench run [config]`: plays an experiment and writes its results folder; with --baseline, compares
 * the finished run with an earlier one and can gate on it. Without a config, `--agent random --game
 * crat` is a first try. With `--resume <dir>` it continues that folder's run instead (`arcbench resume
 * <dir>` is the same without naming the config). The first SIGINT or SIGTERM stops scheduling, lets
 * in-flight episodes stop at their next step, closes every scorecard and writes the results; a second
 * one exits at once.
 */
import type { Command } from 'commander';
import { renderComparisonTerminal } from '../analysis/comparisonTable.ts';
import { harnessCardLines } from '../analysis/harnessCardDiff.ts';
import { RunsNotComparableError } from '../analysis/compareRuns.ts';
import { type Experiment, experimentFromFlags, loadExperiment } from '../runner/config/loader.ts';
import { loadExperimentForResume } from '../runner/resume/loadForResume.ts';
import { renderCompactTable, tableWidth } from '../runner/results/resultsTable.ts';
import { tableNotes } from '../runner/results/tableNotes.ts';
import { unplayedSentence } from '../runner/results/runCompleteness.ts';
import { terminalProgress } from '../runner/progress.ts';
import type { BaselineOptions } from '../runner/results/baselineComparison.ts';
import { readRunFolder } from '../runfolder/readRunFolder.ts';
import { type RunOptions, type RunResult, runExperiment } from '../runner/runExperiment.ts';
import type { Scheduler } from '../runner/scheduler.ts';
import type { RedisAddress } from '../scale/queue/redisAddress.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';
import { addRunOptions, configOverrides, conflictingOptions, type RunCommandOptions, selectedAgents } from './runOptions.ts';
import { RUN_FOLDER_NAMES } from '../runfolder/layout.ts';

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Version of the `--json` summary's layout. */
export const RUN_SUMMARY_FORMAT = 'arcbench.run-summary/1';

export function register(program: Command): void {
  const command = program
    .command('run')
    .description('Play an experiment (agents × games × episodes) and write its results folder, or resume one.')
    .argument('[config]', 'experiment file (YAML), e.g. configs/quickstart.yaml; leave out for a first try with --agent and --game');
  addRunOptions(command)
    .addHelpText(
      'after',
      `
Examples:
  arcbench run configs/quickstart.yaml
  arcbench run configs/compare.yaml --games lamp,crat --agents explorer-default --episodes 5 --max-actions 200
  arcbench run --agent random --game crat
  arcbench run configs/nightly.yaml --baseline results/last-nightly --fail-on-regression --threshold 2
  arcbench run configs/nightly.yaml --resume results/2025-01-31T12-05-09Z-nightly

Results: ${RUN_FOLDER_NAMES.contents.join(', ')} in the results
folder, and ${RUN_FOLDER_NAMES.comparisonJson} / ${RUN_FOLDER_NAMES.comparisonMarkdown} with --baseline. When GITHUB_STEP_SUMMARY is set, the table
(and the comparison) is appended to it as markdown.
${RUN_EXIT_CODES}`,
    )
    .action(async (configPath: string | undefined, options: RunCommandOptions) => {
      process.exit(await runCommand('run', configPath, options));
    });
}

/** The exit codes of `run` and `resume`, for their --help. */
export const RUN_EXIT_CODES = `Exit codes: 0 every planned episode ran (and no regression under --fail-on-regression); 1 an
episode or a scorecard close failed, or a regression under --fail-on-regression; 2 bad config or usage,
a used --out, a run folder whose experiment changed, a baseline that cannot be compared, or a run that
could not start (the key refused, the service out of reach); 3 partial:
stopped on run_seconds or on the dollar budget (budgets.max_run_cost_usd) before every episode was played
(resume plays the rest); 130/143 interrupted by
SIGINT/SIGTERM (cards closed, finished episodes kept, resume plays the rest).`;

async function loadRunExperiment(configPath: string | undefined, options: RunCommandOptions): Promise<Experiment> {
  const overrides = configOverrides(options);
  if (options.resume !== undefined) return loadExperimentForResume(options.resume, { configPath, overrides });
  if (configPath !== undefined) return loadExperiment(configPath, { overrides });
  return experimentFromFlags(selectedAgents(options) ?? [], { baseDir: process.cwd(), overrides });
}

/** The baseline, read before playing, so a wrong folder or foreign run fails at once. */
function loadBaseline(path: string, experiment: Experiment, options: RunCommandOptions): BaselineOptions {
  const folder = readRunFolder(path);
  const labels = experiment.agents.map((a) => a.label);
  const baselineLabels = folder.report.agents.map((a) => a.label);
  if (!labels.some((label) => baselineLabels.includes(label))) {
    throw new RunsNotComparableError(
      `--baseline ${path}: it shares no agent label with this run (baseline: ${baselineLabels.join(', ') || 'none'}; this run: ${labels.join(', ')}); give a run of the same config`,
    );
  }
  return {
    folder,
    name: path,
    ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
    perGame: options.perGame === true,
    failOnRegression: options.failOnRegression === true,
  };
}

/** Where the run goes: a new folder (its overrides kept for a resume), or the folder it resumes. */
function folderOptions(configPath: string | undefined, options: RunCommandOptions): RunOptions {
  if (options.resume !== undefined) return { resume: { runDir: options.resume, retryErrors: options.retryErrors === true } };
  // A config-less run's plugin paths start from here; a resume from elsewhere needs to know.
  const overrides = { ...configOverrides(options), ...(configPath === undefined ? { base_dir: process.cwd() } : {}) };
  return { out: options.out, force: options.force === true, overrides };
}

/** `run` and `resume` both end here; `configPath` undefined with --resume: the config the run names. */
export async function runCommand(command: string, configPath: string | undefined, options: RunCommandOptions): Promise<number> {
  const conflict = conflictingOptions(configPath, options);
  if (conflict !== null) {
    process.stderr.write(`arcbench ${command}: ${conflict}\n`);
    return EXIT_USAGE;
  }
  let experiment: Experiment;
  let baseline: BaselineOptions | undefined;
  try {
    experiment = await loadRunExperiment(configPath, options);
    if (options.baseline !== undefined) baseline = loadBaseline(options.baseline, experiment, options);
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
  try {
    const result = await runExperiment(experiment, {
      ...folderOptions(configPath, options),
      signal: interrupt.signal,
      onEstimate: (lines) => process.stderr.write(lines.map((line) => `arcbench ${command}: ${line}\n`).join('')),
      ...(tty ? {} : { consoleLog: process.stderr }),
      progress: tty ? terminalProgress(process.stderr) : undefined,
      ...(baseline ? { baseline } : {}),
      ...(process.env.GITHUB_STEP_SUMMARY ? { stepSummary: process.env.GITHUB_STEP_SUMMARY } : {}),
      // Loaded when the run ends: the page's bundler is not needed before.
      extraResults: [{ name: RUN_FOLDER_NAMES.report, write: async (runDir) => (await import('../report/writeReport.ts')).writeReport(runDir) }],
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.agentOutput ? { agentOutput: (line: string) => process.stderr.write(`${line}\n`) } : {}),
      ...(options.queue ? { scheduler: await loadQueueScheduler(options.queue) } : {}),
    });
    const exitCode = exitCodeOf(result, firstSignal);
    report(command, result, options, exitCode, !tty);
    return exitCode;
  } catch (error) {
    return reportFailure(command, error);
  }
}

/** The worker pool's scheduler, loaded only for `--queue`: a run in this process loads neither bullmq nor ioredis. */
async function loadQueueScheduler(address: RedisAddress): Promise<Scheduler> {
  return (await import('../scale/queue/queueScheduler.ts')).queueScheduler(address);
}

function exitCodeOf(result: RunResult, signal: string | undefined): number {
  const { status } = result.report;
  if (status === 'interrupted') return SIGNAL_EXIT_CODES[signal ?? 'SIGINT'] ?? EXIT_FAILED;
  if (status === 'partial') return EXIT_PARTIAL;
  if (status !== 'completed') return EXIT_FAILED;
  if (result.baseline?.error) return EXIT_USAGE;
  if (result.baseline?.document?.failed) return EXIT_FAILED;
  return EXIT_OK;
}

/** The results on stdout (the table, or with --json one summary and nothing else), problems on stderr. */
/** `logShown`: the log's readable lines went to stderr (not a terminal), the resume's notes among them as warnings. */
function report(command: string, result: RunResult, options: RunCommandOptions, exitCode: number, logShown: boolean): void {
  const { totals, status } = result.report;
  const comparison = result.baseline?.document ?? null;
  if (options.json === true) {
    const summary = {
      format: RUN_SUMMARY_FORMAT,
      run_dir: result.runDir,
      name: result.report.name,
      status,
      exit_code: exitCode,
      totals,
      table: result.report.table ?? [],
      // What the table's intervals resample, its best draws, repeats and missing episodes, as under every table.
      table_notes: tableNotes(result.report.table ?? []),
      scorecard_urls: Object.fromEntries(result.report.agents.filter((a) => a.scorecard_url).map((a) => [a.label, a.scorecard_url])),
      comparison,
      harness_cards: result.baseline?.document ? result.baseline.cards : null,
      comparison_error: result.baseline?.error ?? null,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    // What differs between the two harness cards before any score, as `compare` says it.
    const cards = result.baseline?.document ? `\n${harnessCardLines(result.baseline.cards).join('\n')}\n` : '';
    const compared = comparison ? `${cards}\n${renderComparisonTerminal(comparison, { perGame: options.perGame === true })}\n` : '';
    process.stdout.write(`${tableForTerminal(result)}\n${compared}results: ${result.runDir}\n`);
    // Each card's page on the service's site, as the official harness prints it.
    for (const agent of result.report.agents) if (agent.scorecard_url) process.stdout.write(`scorecard of ${agent.label}: ${agent.scorecard_url}\n`);
  }
  const say = (sentence: string) => process.stderr.write(`arcbench ${command}: ${sentence}\n`);
  // Said once: on a terminal the log is not shown, so here; otherwise its warning lines have said them.
  if (!logShown) for (const note of result.notes) say(note);
  if (totals.errors > 0 || totals.close_errors > 0) {
    say(`${totals.errors} episode(s) failed, ${totals.close_errors} scorecard close(s) failed; see episodes.jsonl and run.log`);
  }
  const unplayed = unplayedSentence(result.report, result.runDir);
  if (unplayed !== undefined) say(unplayed);
  if (result.baseline?.error) say(result.baseline.error);
  if (comparison?.failed) say(`regression against ${options.baseline}; see comparison.md in the results folder`);
}

/**
 * The results table as wide as the terminal allows: the full one when it fits (or when stdout is no
 * terminal: a log or a pipe keeps every column), else the compact one, with where the full one is.
 */
function tableForTerminal(result: RunResult): string {
  const columns = process.stdout.isTTY === true ? process.stdout.columns : undefined;
  if (columns === undefined || tableWidth(result.table) <= columns) return result.table;
  const compact = renderCompactTable(result.report.table ?? []);
  return `${compact}\n(the table is narrowed to the terminal's ${columns} columns; table.md holds every column)`;
}
