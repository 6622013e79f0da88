/**
 * `arcbench view [folder]`: serves run folders on 127.0.0.1 until interrupted: the list of runs, each
 * run's report with every recording, and runs in progress followed live. Prints the URL on stdout.
 */
import { type Command, Option } from 'commander';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, integerOption } from './commandSupport.ts';
import { RunFolderError } from '../runfolder/folderSnapshot.ts';
import { startViewServer, ViewFolderError } from '../report/viewServer.ts';

export const DEFAULT_VIEW_PORT = 7070;

export function register(program: Command): void {
  program
    .command('view')
    .description('Serve run folders on 127.0.0.1: a list of runs, each run with every recording, runs in progress live.')
    .argument('[folder]', 'a results folder (runs inside it) or one run folder', 'results')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1; 0 picks a free one').default(DEFAULT_VIEW_PORT).argParser(integerOption('--port', 0, 65535)))
    .addHelpText('after', '\nExit codes: 0 stopped with Ctrl+C; 2 no such folder, port in use, or bad usage.')
    .action(async (folder: string, options: { port: number }) => {
      const code = await viewCommand(folder, options.port);
      if (code !== EXIT_OK) process.exit(code);
    });
}

async function viewCommand(folder: string, port: number): Promise<number> {
  try {
    const server = await startViewServer(folder, port);
    process.stdout.write(`${server.url}\n`);
    process.stderr.write(`arcbench view: serving ${folder} at ${server.url} (Ctrl+C to stop)\n`);
    const stop = () => void server.close().then(() => process.exit(EXIT_OK));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ViewFolderError || error instanceof RunFolderError) {
      process.stderr.write(`arcbench view: ${error.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`arcbench view: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_FAILED;
  }
}
