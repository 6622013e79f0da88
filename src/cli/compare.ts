/**
 * `arcbench compare <baseline> <candidate>`: compares two run folders episode by episode and, with
 * --fail-on-regression, gates on the result. All reading happens here; the comparison itself is pure
 * (src/analysis).
 */
import { type Command, Option } from 'commander';
import { renderComparisonMarkdown, renderComparisonTerminal } from '../analysis/comparisonTable.ts';
import { compareRuns } from '../analysis/compareRuns.ts';
import { oneAgentAs } from '../analysis/episodeSample.ts';
import { comparisonDocument, DEFAULT_THRESHOLD } from '../analysis/gate.ts';
import { runEpisodesOfFolder } from '../analysis/runEpisodes.ts';
import { compareHarnessCards, harnessCardLines, harnessCardMarkdown } from '../analysis/harnessCardDiff.ts';
import { readRunFolder } from '../runfolder/readRunFolder.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './commandSupport.ts';
import { checkOutputPath } from './outputPath.ts';
import { reportFailure } from './reportFailure.ts';
import { addGateOptions, type GateCommandOptions } from './gateOptions.ts';

interface CompareCommandOptions extends GateCommandOptions {
  markdown?: boolean;
  json?: boolean;
  html?: string;
  baselineAgent?: string;
  candidateAgent?: string;
}

export function register(program: Command): void {
  const command = program
    .command('compare')
    .description('Compare two runs: per agent (and game), mean episode scores, the difference with a 95% interval, and a verdict.')
    .argument('<baseline>', 'run folder (or its run.json) to compare against')
    .argument('<candidate>', 'run folder (or its run.json) to judge')
    .addOption(new Option('--markdown', 'print the comparison as markdown').conflicts('json'))
    .addOption(new Option('--json', 'print the comparison as one JSON document'))
    .addOption(new Option('--html <file>', 'also write the comparison as a page: one file that opens from disk'))
    .addOption(new Option('--baseline-agent <label>', 'compare only this agent of the baseline…'))
    .addOption(new Option('--candidate-agent <label>', '…with this agent of the candidate (both runs may be the same folder)'));
  addGateOptions(command)
    .addHelpText(
      'after',
      `
Episodes pair by (agent label, game, episode index) when their seeds match: runs of one config with one
seed pair. Others are compared as independent samples, and the output says so.
Two agents, of one run or of two: arcbench compare RUN RUN --baseline-agent random --candidate-agent explorer
Verdicts: better / worse (the whole 95% interval above / below zero), no significant change, identical.
Exit codes: 0 compared (no regression, or --fail-on-regression not given); 1 a regression under
--fail-on-regression; 2 the runs cannot be compared (no common agent or game), a folder is unreadable, or
--html names a folder that does not exist.`,
    )
    .action(async (baseline: string, candidate: string, options: CompareCommandOptions) => {
      process.exit(await compareCommand(baseline, candidate, options));
    });
}

async function compareCommand(baselinePath: string, candidatePath: string, options: CompareCommandOptions): Promise<number> {
  try {
    if (options.html !== undefined) checkOutputPath('--html', options.html);
    const baselineFolder = readRunFolder(baselinePath);
    const candidateFolder = readRunFolder(candidatePath);
    let baseline = runEpisodesOfFolder(baselineFolder, baselinePath);
    let candidate = runEpisodesOfFolder(candidateFolder, candidatePath);
    if (options.baselineAgent !== undefined || options.candidateAgent !== undefined) {
      if (options.baselineAgent === undefined || options.candidateAgent === undefined) {
        process.stderr.write(
          'arcbench compare: give --baseline-agent and --candidate-agent together, e.g. --baseline-agent random --candidate-agent explorer\n',
        );
        return EXIT_USAGE;
      }
      const label = `${options.baselineAgent} → ${options.candidateAgent}`;
      baseline = oneAgentAs(baseline, options.baselineAgent, label);
      candidate = oneAgentAs(candidate, options.candidateAgent, label);
    }
    const pair = options.baselineAgent === undefined ? undefined : { baseline: options.baselineAgent, candidate: options.candidateAgent ?? '' };
    // What differs between the harnesses is said before any score: a score difference is theirs too.
    const cards = compareHarnessCards(baselineFolder.report.harness_card, candidateFolder.report.harness_card, pair);
    const comparison = compareRuns(baseline, candidate, { threshold: options.threshold ?? DEFAULT_THRESHOLD });
    const view = { perGame: options.perGame === true };
    const document = comparisonDocument(comparison, { ...view, failOnRegression: options.failOnRegression === true });
    if (options.json === true) process.stdout.write(`${JSON.stringify({ harness_cards: cards, ...document }, null, 2)}\n`);
    else if (options.markdown === true) process.stdout.write(`${harnessCardMarkdown(cards)}\n\n${renderComparisonMarkdown(comparison, view)}`);
    else process.stdout.write(`${harnessCardLines(cards).join('\n')}\n\n${renderComparisonTerminal(comparison, view)}\n`);
    if (options.html !== undefined) {
      // Loaded only when asked: the page's bundler is not needed otherwise.
      await (await import('../report/writeComparisonPage.ts')).writeComparisonPage({ ...document, harness_card_lines: harnessCardLines(cards) }, options.html);
      process.stderr.write(`arcbench compare: the comparison as a page: ${options.html}\n`);
    }
    return document.failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    // Unreadable folders and runs without a common agent or game are usage problems: exit 2.
    return reportFailure('compare', error);
  }
}
