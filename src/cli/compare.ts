/**
 * `arcbench compare <baseline> <candidate>`: compares two run folders episode by episode and, with
 * --fail-on-regression, gates on the result. All reading happens here; the comparison itself is pure
 * (src/analysis).
 */
import { Command, Option } from 'commander';
import { renderComparisonMarkdown, renderComparisonTerminal } from '../analysis/comparisonTable.ts';
import { compareRuns } from '../analysis/compareRuns.ts';
import { comparisonDocument } from '../analysis/gate.ts';
import { readRunFolder, runEpisodesOfFolder } from '../runner/results/runFolder.ts';
import { EXIT_FAILED, EXIT_OK, reportFailure } from './commandSupport.ts';
import { addGateOptions, type GateCommandOptions } from './gateOptions.ts';

interface CompareCommandOptions extends GateCommandOptions {
  markdown?: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('compare')
    .description('Compare two runs: per agent (and game), mean episode scores, the difference with a 95% interval, and a verdict.')
    .argument('<baseline>', 'run folder (or its run.json) to compare against')
    .argument('<candidate>', 'run folder (or its run.json) to judge')
    .addOption(new Option('--markdown', 'print the comparison as markdown').conflicts('json'))
    .addOption(new Option('--json', 'print the comparison as one JSON document'));
  addGateOptions(command)
    .addHelpText(
      'after',
      `
Episodes pair by (agent label, game, episode index) when their seeds match: runs of one config with one
seed pair. Others are compared as independent samples, and the output says so.
Verdicts: better / worse (the whole 95% interval above / below zero), no significant change, identical.
Exit codes: 0 compared (no regression, or --fail-on-regression not given); 1 a regression under
--fail-on-regression; 2 the runs cannot be compared (no common agent or game) or a folder is unreadable.`,
    )
    .action((baseline: string, candidate: string, options: CompareCommandOptions) => {
      process.exit(compareCommand(baseline, candidate, options));
    });
}

function compareCommand(baselinePath: string, candidatePath: string, options: CompareCommandOptions): number {
  try {
    const baseline = runEpisodesOfFolder(readRunFolder(baselinePath), baselinePath);
    const candidate = runEpisodesOfFolder(readRunFolder(candidatePath), candidatePath);
    const comparison = compareRuns(baseline, candidate, { threshold: options.threshold ?? 0 });
    const view = { perGame: options.perGame === true };
    const document = comparisonDocument(comparison, { ...view, failOnRegression: options.failOnRegression === true });
    if (options.json === true) process.stdout.write(JSON.stringify(document, null, 2) + '\n');
    else if (options.markdown === true) process.stdout.write(renderComparisonMarkdown(comparison, view));
    else process.stdout.write(renderComparisonTerminal(comparison, view) + '\n');
    return document.failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    // Unreadable folders and runs without a common agent or game are usage problems: exit 2.
    return reportFailure('compare', error);
  }
}
