/**
 * `arcbench validate <config>`: checks an experiment without playing it: the schema, `${VAR}`
 * references, every agent (loaded) and its params, and, for local targets, the game selection and the
 * plan's cost estimate against budgets.max_run_cost_usd (a plan `run` would refuse is not valid). An
 * unset key's variable is named, not an error: checking the file needs no key, running it does.
 */
import type { Command } from 'commander';
import { type Experiment, loadExperiment } from '../runner/config/loader.ts';
import { EXIT_OK } from './commandSupport.ts';
import { reportFailure } from './reportFailure.ts';
import { resolvePlan } from '../runner/plan.ts';
import { EstimateOverBudgetError, estimatePlan, type PlanEstimate, refuseOverBudget } from '../runner/planEstimate.ts';
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

/** A plan `run` would refuse for its estimated cost: the same sentence, said as validate's finding. */
function refuseBeforeRun(experiment: Experiment, estimate: PlanEstimate): void {
  try {
    refuseOverBudget(experiment, estimate, false);
  } catch (error) {
    if (!(error instanceof EstimateOverBudgetError)) throw error;
    throw new EstimateOverBudgetError(`${basename(experiment.file)}: \`arcbench run\` would refuse this plan: ${error.message}`);
  }
}

async function validateCommand(configPath: string): Promise<number> {
  try {
    const experiment = await loadExperiment(configPath, { keysNotNeeded: true });
    const { config } = experiment;
    let games = 'games not checked (remote target: `arcbench plan` lists them)';
    // Our own targets offer the reference catalog, so the selection can be checked without a network.
    if (typeof config.target !== 'object' || !('url' in config.target)) {
      // games_dir's games are loaded as a run would (each imported), so a broken one is named here.
      const offered = await openTargetGames(config);
      const transport = referenceTransport(config.seed, offered.games);
      const plan = await resolvePlan(experiment, transport).finally(() => offered.close());
      await transport.close();
      refuseBeforeRun(experiment, estimatePlan(experiment, plan));
      games = `${plan.games.length} game(s), ${plan.episodes.length} episode(s)`;
    }
    process.stdout.write(
      `${basename(experiment.file)}: valid; ${experiment.agents.length} agent(s) (${experiment.agents.map((a) => a.label).join(', ')}); ${games}\n`,
    );
    for (const name of experiment.unsetKeys ?? []) {
      process.stdout.write(`note: ${name} is not set; \`arcbench run\` needs it (export ${name}=…)\n`);
    }
    return EXIT_OK;
  } catch (error) {
    return reportFailure('validate', error);
  }
}
