/**
 * The `arcbench` command line. Each command lives in its own file under src/cli/ and exports
 * `register(program)`; this file only assembles them.
 */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { commandModules } from './commands.ts';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('arcbench')
  .description('Benchmark agent strategies on the game-session scoring service, locally or remote.')
  .version(packageJson.version)
  .showHelpAfterError('(run with --help for usage)');

for (const module of commandModules) module.register(program);

// Usage errors exit 2 (bad config or usage), as every arcbench command does.
program.exitOverride((error) => {
  process.exit(error.exitCode === 0 ? 0 : error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2);
});

await program.parseAsync(process.argv);
