#!/usr/bin/env node
/**
 * The `arcbench` command line: package.json's `bin` is its build, dist/src/cli/main.js. Each command
 * lives in its own file under src/cli/ and exports `register(program)`; this file only assembles them.
 */
import { Command, type CommanderError } from 'commander';
import { packageManifest } from '../packageFiles.ts';
import { loadCommandModules } from './commands.ts';

const program = new Command()
  .name('arcbench')
  .description('Benchmark agent strategies on the game-session scoring service, locally or remote.')
  .version(packageManifest().version)
  .showHelpAfterError('(run with --help for usage)');

for (const module of await loadCommandModules(process.argv.slice(2))) module.register(program);

// Usage errors exit 2 (bad config or usage), help and version 0. Commands added with addCommand do not
// inherit the program's settings, so every command gets the override.
const exitOnUsageError = (error: CommanderError) => {
  const fine = error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
  process.exit(fine ? 0 : 2);
};
const withSubcommands = (command: Command): Command[] => [command, ...command.commands.flatMap(withSubcommands)];
for (const command of withSubcommands(program)) command.exitOverride(exitOnUsageError);

await program.parseAsync(process.argv);
