/**
 * `arcbench merge <run-dir>... --out <dir>`: the shards of one experiment (`arcbench run --shard i/n`)
 * as one run folder, checked to come from the same experiment and to hold every planned episode once.
 */
import { type Command, Option } from 'commander';
import { mergeRuns } from '../runner/merge/mergeRuns.ts';
import { EXIT_FAILED, EXIT_OK } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';
import { RUN_FOLDER_NAMES } from '../runfolder/layout.ts';

interface MergeCommandOptions {
  out: string;
  force?: boolean;
}

export function register(program: Command): void {
  program
    .command('merge')
    .description('Merge the run folders of one experiment’s shards into one run folder, as if one machine had played it.')
    .argument('<run-dir...>', 'the shards’ run folders (e.g. shards/*)')
    .requiredOption('--out <dir>', 'the merged run folder; a used folder is refused')
    .addOption(new Option('--force', 'move a used --out folder aside (renamed, never deleted)'))
    .addHelpText(
      'after',
      `
Refused when the folders come from different experiments (their plan fingerprints differ), or do not
hold every planned episode exactly once: the sentence names the missing or duplicated episodes.
Exit codes: 0 merged, every episode ran; 1 merged, but an episode or a scorecard close had failed;
2 the folders cannot be merged.`,
    )
    .action(async (dirs: string[], options: MergeCommandOptions) => {
      process.exit(await mergeCommand(dirs, options));
    });
}

async function mergeCommand(dirs: string[], options: MergeCommandOptions): Promise<number> {
  try {
    const result = await mergeRuns(dirs, {
      out: options.out,
      force: options.force === true,
      ...(process.stderr.isTTY ? {} : { consoleLog: process.stderr }),
      // As `arcbench run` writes it; loaded at the end: the page's bundler is not needed before.
      extraResults: [{ name: RUN_FOLDER_NAMES.report, write: async (runDir) => (await import('../report/writeReport.ts')).writeReport(runDir) }],
    });
    process.stdout.write(`${result.table}\nresults: ${result.runDir}\n`);
    return result.report.status === 'completed' ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    return reportFailure('merge', error);
  }
}
