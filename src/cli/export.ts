/**
 * `arcbench export <run> --format messages|leaderboard|results|csv`: a run folder in another shape: each
 * episode's model conversation in chat format (JSONL), the submission file of the ARC Prize community
 * leaderboard (JSON), or the results table (JSON with its notes, or CSV). To stdout, or to --out.
 */
import { writeFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { conversations, noConversations } from '../runner/export/messagesExport.ts';
import { leaderboardSubmission } from '../runner/export/leaderboardExport.ts';
import { recordWrittenFile } from '../runfolder/manifest.ts';
import { type RunFolder, readRunFolder } from '../runfolder/readRunFolder.ts';
import { resultsCsv, resultsDocument } from '../runner/export/resultsExport.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';

interface ExportOptions {
  format: 'messages' | 'leaderboard' | 'results' | 'csv';
  out?: string;
}

export function register(program: Command): void {
  program
    .command('export')
    .description('Write a run folder in another shape: chat-format conversations (messages) or a leaderboard submission (leaderboard).')
    .argument('<run>', 'run folder written by arcbench run')
    .addOption(
      new Option(
        '--format <format>',
        'messages: one JSON line per episode, its model conversation; leaderboard: the submission file; results: the results table (JSON, with its notes); csv: the results table as CSV',
      )
        .choices(['messages', 'leaderboard', 'results', 'csv'])
        .makeOptionMandatory(),
    )
    .option('--out <file>', 'write here instead of stdout')
    .addHelpText(
      'after',
      '\nAn --out inside the run folder is listed in its manifest.json, so `arcbench verify` still passes.\nExit codes: 0 written; 1 (messages) a run without transcripts, nothing written (it says why); 2 not a run folder, or (leaderboard) a run whose scorecards are not on the hosted service.',
    )
    .action(async (run: string, options: ExportOptions) => {
      process.exit(await exportCommand(run, options));
    });
}

function exportText(format: ExportOptions['format'], folder: RunFolder, records: readonly unknown[]): string {
  if (format === 'messages') return records.map((record) => `${JSON.stringify(record)}\n`).join('');
  if (format === 'csv') return resultsCsv(folder);
  const document = format === 'results' ? resultsDocument(folder) : leaderboardSubmission(folder);
  return `${JSON.stringify(document, null, 2)}\n`;
}

async function exportCommand(run: string, options: ExportOptions): Promise<number> {
  try {
    const folder = readRunFolder(run);
    const records = options.format === 'messages' ? await conversations(folder) : [];
    if (options.format === 'messages' && records.length === 0) {
      process.stderr.write(`arcbench export: ${noConversations(folder)}\n`);
      return EXIT_FAILED;
    }
    const text = exportText(options.format, folder, records);
    if (options.out === undefined) process.stdout.write(text);
    else {
      writeFileSync(options.out, text);
      // A file written into the run folder joins its manifest, so `verify` does not call it foreign.
      recordWrittenFile(run, options.out);
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'RUN_NOT_SUBMITTABLE') {
      process.stderr.write(`arcbench export: ${error.message}\n`);
      return EXIT_USAGE;
    }
    return reportFailure('export', error);
  }
}
