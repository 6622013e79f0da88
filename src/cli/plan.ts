/**
 * `arcbench plan <config>`: the resolved matrix (agents × games × episodes, with seeds and budgets)
 * without playing anything. Remote targets are asked for their game list only.
 */
import Table from 'cli-table3';
import { type Command, Option } from 'commander';
import { type Experiment, loadExperiment } from '../runner/config/loader.ts';
import { EXIT_OK, integerOption } from './commandSupport.ts';
import { estimateLines, estimatePlan } from '../runner/planEstimate.ts';
import { readRunFolder } from '../runfolder/readRunFolder.ts';
import { reportFailure } from './reportFailure.ts';
import { armsLines } from './armsList.ts';
import { type Plan, resolvePlan } from '../runner/plan.ts';
import { detectableLines, detectableOrRefuse } from '../runner/planDetectable.ts';
import { openTarget, openTargetGames, referenceTransport } from '../runner/targets.ts';

interface PlanOptions {
  json?: boolean;
  seed?: number;
  estimate?: boolean;
  from?: string;
}

export function register(program: Command): void {
  program
    .command('plan')
    .description('Show what an experiment would play (agents × games × episodes, seeds, budgets) without playing.')
    .argument('<config>', 'experiment file (YAML)')
    .addOption(new Option('--json', 'print one JSON line per episode instead of the table'))
    .addOption(new Option('--seed <n>', 'run seed (overrides the config)').argParser(integerOption('--seed', 0, 0xffffffff)))
    .addOption(new Option('--estimate', "also estimate the plan's tokens and dollars (from what each agent says of its calls, or --from)"))
    .addOption(
      new Option(
        '--from <run>',
        "an earlier run's folder: state the smallest difference this plan can tell from noise, from that run's spread (and with --estimate, price the plan from its measured tokens and dollars)",
      ),
    )
    .action(async (configPath: string, options: PlanOptions) => {
      process.exit(await planCommand(configPath, options));
    });
}

async function planCommand(configPath: string, options: PlanOptions): Promise<number> {
  try {
    // Pricing a plan needs no key: an unset ${…KEY} is left as written (run still asks for it).
    const experiment = await loadExperiment(configPath, { overrides: { seed: options.seed }, keysNotNeeded: true });
    const { config } = experiment;
    const remote = typeof config.target === 'object' && 'url' in config.target;
    // games_dir's official games are offered as a run would offer them (their hosts closed once listed).
    const offered = remote ? undefined : await openTargetGames(config);
    const target = remote ? await openTarget(config) : { transport: referenceTransport(config.seed, offered?.games), close: async () => {} };
    // Only the game list is read: no scorecard is opened, nothing is played.
    let plan: Plan;
    try {
      plan = await resolvePlan(experiment, target.transport);
    } finally {
      if (remote) await target.close();
      else await target.transport.close();
      offered?.close();
    }
    const earlier = options.from === undefined ? undefined : readRunFolder(options.from);
    const estimate = options.estimate === true ? estimatePlan(experiment, plan, earlier) : undefined;
    const detectable = earlier === undefined ? undefined : detectableOrRefuse(experiment, plan, earlier, options.estimate === true);
    if (options.json) {
      if (estimate !== undefined) process.stdout.write(`${JSON.stringify({ estimate })}\n`);
      if (detectable !== undefined) process.stdout.write(`${JSON.stringify({ detectable })}\n`);
      for (const e of plan.episodes) {
        const arm = e.agent.arm === undefined ? {} : { arm: e.agent.arm.levels };
        process.stdout.write(
          `${JSON.stringify({ agent: e.agent.label, use: e.agent.use, ...arm, game_id: e.game.game_id, episode: e.index, seed: e.seed })}\n`,
        );
      }
      return EXIT_OK;
    }
    process.stdout.write(planText(experiment, plan));
    for (const line of armsLines(experiment.agents)) process.stdout.write(`${line}\n`);
    if (estimate !== undefined) process.stdout.write(`${estimateLines(estimate).join('\n')}\n`);
    if (detectable !== undefined) process.stdout.write(`${detectableLines(detectable, options.from!, config).join('\n')}\n`);
    return EXIT_OK;
  } catch (error) {
    return reportFailure('plan', error);
  }
}

/** The matrix as a table, and the line under it: episodes, seed, concurrency, budgets. */
function planText(experiment: Experiment, plan: Plan): string {
  const { config } = experiment;
  const table = new Table({ head: ['agent', 'use', 'game', 'levels', 'episodes', 'seeds'], style: { head: [], border: [] } });
  for (const agent of experiment.agents) {
    for (const game of plan.games) {
      const seeds = plan.episodes.filter((e) => e.agent === agent && e.game === game).map((e) => e.seed);
      const shown = seeds.slice(0, 3).join(', ') + (seeds.length > 3 ? `, … (${seeds.length})` : '');
      table.push([
        agent.label,
        agent.use,
        game.game_id,
        game.baseline_actions === undefined ? 'unknown' : String(game.baseline_actions.length),
        String(seeds.length),
        shown,
      ]);
    }
  }
  const b = config.budgets;
  const budgets = [
    `max ${b.max_actions} actions per episode`,
    b.max_actions_per_level === undefined ? undefined : `${b.max_actions_per_level}× baseline per level`,
    b.episode_seconds === undefined ? undefined : `${b.episode_seconds} s per episode`,
    b.run_seconds === undefined ? undefined : `${b.run_seconds} s per run`,
  ].filter(Boolean);
  return (
    `${table.toString()}\n${plan.episodes.length} episode(s): ${experiment.agents.length} agent(s) × ${plan.games.length} game(s) × ${config.episodes}` +
    `${config.repeats > 1 ? ` × ${config.repeats} repeats` : ''}; ` +
    `seed ${config.seed}; concurrency ${config.concurrency}; ${budgets.join(', ')}\n`
  );
}
