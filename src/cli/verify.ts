/**
 * `arcbench verify <run>`: checks a run folder against itself (src/runner/results/verifyRun.ts): the
 * scores and counts of every episode recomputed from its recording with the service's scoring code,
 * usage from model calls and transcripts, and every file against manifest.json.
 */
import type { Command } from 'commander';
import { verifyRunFolder } from '../runner/results/verifyRun.ts';
import { EXIT_FAILED, EXIT_OK } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';

export function register(program: Command): void {
  program
    .command('verify')
    .description(
      "Check a run folder: recompute every episode's score, levels and actions from its recording, usage from its transcript, and every file's SHA-256 against manifest.json.",
    )
    .argument('<run>', 'run folder written by arcbench run')
    .addHelpText('after', '\nExit codes: 0 everything agrees; 1 something differs (each difference is printed); 2 not a run folder.')
    .action(async (run: string) => {
      process.exit(await verifyCommand(run));
    });
}

async function verifyCommand(run: string): Promise<number> {
  try {
    const { problems, checked } = await verifyRunFolder(run);
    const what = `${checked.episodes} episode(s), ${checked.recordings} recording(s), ${checked.transcripts} transcript(s), ${checked.files} file(s) of the manifest`;
    if (problems.length === 0) {
      process.stdout.write(`verified ${run}: ${what}; everything agrees\n`);
      return EXIT_OK;
    }
    process.stdout.write(`${problems.map((problem) => `differs: ${problem}`).join('\n')}\n`);
    process.stdout.write(`${run}: ${problems.length} difference(s) in ${what}\n`);
    return EXIT_FAILED;
  } catch (error) {
    return reportFailure('verify', error);
  }
}
