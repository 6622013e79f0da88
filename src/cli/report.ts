/** `arcbench report <run-dir>`: writes the run folder's report.html again (e.g. after a run was killed). */
import { type Command, Option } from 'commander';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './commandSupport.ts';
import { checkOutputPath, OutputPathError } from './outputPath.ts';
import { RunFolderError } from '../runfolder/folderSnapshot.ts';
import { recordWrittenFile } from '../runfolder/manifest.ts';
import { writeReport } from '../report/writeReport.ts';

export function register(program: Command): void {
  program
    .command('report')
    .description('Write report.html into a run folder: results, charts, episodes and a replay viewer, in one file that opens from disk.')
    .argument('<run-dir>', 'a folder written by arcbench run, e.g. results/2025-01-31T12-05-09Z-quickstart')
    .addOption(new Option('--out <file>', 'where to write the page (default: <run-dir>/report.html)'))
    .addHelpText(
      'after',
      '\nBig runs embed the best and the worst episode of every agent on every game and as many others as fit;\n`arcbench view <run-dir>` replays every recording.\nA page written into the run folder is listed in its manifest.json anew, so `arcbench verify` still passes.\nExit codes: 0 written; 1 writing failed; 2 not a run folder, an --out in a folder that does not exist, or bad usage.',
    )
    .action(async (runDir: string, options: { out?: string }) => {
      process.exit(await reportCommand(runDir, options));
    });
}

async function reportCommand(runDir: string, options: { out?: string }): Promise<number> {
  try {
    if (options.out !== undefined) checkOutputPath('--out', options.out);
    const written = await writeReport(runDir, { out: options.out });
    // A page written into the folder is listed anew, so `verify` agrees with the folder as it now is.
    recordWrittenFile(runDir, written.path);
    const embedded = written.recordings === 0 ? 'no recordings' : `${written.embedded} of ${written.recordings} recordings embedded`;
    process.stdout.write(`${written.path}: ${(written.bytes / 2 ** 20).toFixed(1)} MB, ${embedded}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof RunFolderError || error instanceof OutputPathError) {
      process.stderr.write(`arcbench report: ${error.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`arcbench report: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_FAILED;
  }
}
