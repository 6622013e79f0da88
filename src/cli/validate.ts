/**
 * `arcbench validate <config>`: checks an experiment without playing it: the schema, `${VAR}`
 * references, every agent (loaded) and its params, and, for local targets, the game selection.
 */
import type { Command } from 'commander';
import { loadExperiment } from '../runner/config/loader.ts';
import { EXIT_OK } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';
import { resolvePlan } from '../runner/plan.ts';
import { openTargetGames, referenceTransport } from '../runner/targets.ts';
import { basename } from 'node:path';

export function register(program: Command): void {
  program
    .command('validate')
    .description('Check an experiment file: schema, environment variables, agents and their params, games.')
    .argument('<config>', 'experiment file (YAML)')
    .addHelpText('after', '\nExit codes: 0 valid; 2 invalid (each problem is printed with its path, e.g. agents[1].params.depth).')
    .action(async (configPath: string) => {
      process.exit(await validateCommand(configPath));
    });
}

async function validateCommand(configPath: string): Promise<number> {
  try {
    const experiment = await loadExperiment(configPath);
    const { config } = experiment;
    let games = 'games not checked (remote target: `arcbench plan` lists them)';
    // Our own targets offer the reference catalog, so the selection can be checked without a network.
    if (typeof config.target !== 'object' || !('url' in config.target)) {
      // games_dir's games are loaded as a run would (each imported), so a broken one is named here.
      const offered = await openTargetGames(config);
      const transport = referenceTransport(config.seed, offered.games);
      const plan = await resolvePlan(experiment, transport).finally(() => offered.close());
      await transport.close();
      games = `${plan.games.length} game(s), ${plan.episodes.length} episode(s)`;
    }
    process.stdout.write(
      `${basename(experiment.file)}: valid; ${experiment.agents.length} agent(s) (${experiment.agents.map((a) => a.label).join(', ')}); ${games}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    return reportFailure('validate', error);
  }
}
