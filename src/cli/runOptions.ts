/**
 * The options of `arcbench run`: what overrides the experiment (or makes one, without a file), what it
 * is compared with, and how results are printed. run.ts holds the flow; this file only the flags.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ConfigOverrides } from '../runner/config/overrides.ts';
import { parseRedisAddress, type RedisAddress } from '../scale/queue/redisAddress.ts';
import { parseShard, type Shard } from '../runner/shard.ts';
import { integerOption } from './commandSupport.ts';
import { addGateOptions, type GateCommandOptions } from './gateOptions.ts';

export interface RunCommandOptions extends GateCommandOptions {
  out?: string;
  concurrency?: number;
  seed?: number;
  games?: string[];
  game?: string[];
  agents?: string[];
  agent?: string[];
  episodes?: number;
  maxActions?: number;
  baseline?: string;
  json?: boolean;
  force?: boolean;
  resume?: string;
  retryErrors?: boolean;
  shard?: Shard;
  queue?: RedisAddress;
  agentOutput?: boolean;
}

/** An option parser from one of ours that throws a sentence: commander shows the sentence as the option's error. */
function sentenceParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** `--queue`'s parser, for run and resume. */
export const redisAddressOption = sentenceParser(parseRedisAddress);

/** `a,b` → [a, b]; repeating the flag adds to the list. */
function commaList(name: string) {
  return (value: string, previous: string[] | undefined): string[] => {
    const items = value.split(',').map((item) => item.trim());
    if (items.some((item) => item === '')) throw new InvalidArgumentError(`${name} takes a comma-separated list without empty items, e.g. lamp,crat`);
    return [...(previous ?? []), ...items];
  };
}

export function addRunOptions(command: Command): Command {
  command
    .addOption(new Option('--out <dir>', 'results folder (default: <output>/<timestamp>-<name>/ from the config); a used folder is refused'))
    .addOption(
      new Option(
        '--force',
        'with --out: move a used folder aside (renamed to <dir>.moved-<time>, never deleted); also start a plan whose estimated cost is over budgets.max_run_cost_usd',
      ),
    )
    .addOption(new Option('--resume <run-dir>', 'continue the run in this folder: play only the planned episodes it has no finished record of'))
    .addOption(new Option('--retry-errors', 'with --resume: also play again the episodes that failed (their records are kept, marked superseded)'))
    .addOption(new Option('--concurrency <n>', 'episodes in flight at once (overrides the config)').argParser(integerOption('--concurrency', 1, 1024)))
    .addOption(
      new Option('--seed <n>', 'run seed (overrides the config); the same seed plays the same episodes').argParser(integerOption('--seed', 0, 0xffffffff)),
    )
    .addOption(
      new Option('--games <list>', 'games to play instead of the config’s: ids, slug prefixes or tags, e.g. lamp,crat').argParser(commaList('--games')),
    )
    .addOption(new Option('--game <list>', 'the same as --games').argParser(commaList('--game')))
    .addOption(
      new Option(
        '--agents <list>',
        'with a config: keep only the agents with these labels; without one: the agents to play (built-in names or plugin paths)',
      ).argParser(commaList('--agents')),
    )
    .addOption(new Option('--agent <list>', 'the same as --agents').argParser(commaList('--agent')))
    .addOption(new Option('--episodes <n>', 'episodes per (agent, game), overrides the config').argParser(integerOption('--episodes', 1, 100_000)))
    .addOption(
      new Option('--max-actions <n>', 'counted actions per episode, overrides budgets.max_actions').argParser(integerOption('--max-actions', 1, 100_000_000)),
    )
    .addOption(new Option('--baseline <run-dir>', 'compare the finished run with this run folder; writes comparison.json and comparison.md'))
    .addOption(new Option('--json', 'print one JSON summary on stdout and nothing else there (logs stay on stderr)'))
    .addOption(
      new Option(
        '--agent-output',
        'show what agent processes (Python agents, protocol agents) print, live on stderr, each line prefixed with its agent, game and episode (it is in run.log either way)',
      ),
    )
    .addOption(
      new Option('--shard <i/n>', 'play the i-th of n parts of the plan (from 0), e.g. 2/4 on the third of four machines; then arcbench merge').argParser(
        sentenceParser(parseShard),
      ),
    )
    .addOption(
      new Option('--queue <redis-url>', 'queue the episodes in this Redis for `arcbench worker`s to play, and write the results here').argParser(
        redisAddressOption,
      ),
    );
  return addGateOptions(command);
}

export const selectedAgents = (options: RunCommandOptions): string[] | undefined =>
  options.agents || options.agent ? [...(options.agents ?? []), ...(options.agent ?? [])] : undefined;

export function configOverrides(options: RunCommandOptions): ConfigOverrides {
  const games = options.games || options.game ? [...(options.games ?? []), ...(options.game ?? [])] : undefined;
  const agents = selectedAgents(options);
  return {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(games ? { games } : {}),
    ...(agents ? { agents } : {}),
    ...(options.episodes !== undefined ? { episodes: options.episodes } : {}),
    ...(options.maxActions !== undefined ? { max_actions: options.maxActions } : {}),
  };
}

/** A sentence when the resume options do not go together; null when they do. */
function conflictingResumeOptions(options: RunCommandOptions): string | null {
  if (options.retryErrors && options.resume === undefined) return '--retry-errors replays the failed episodes of a run: use it with --resume <run-dir>';
  if (options.resume !== undefined && options.out !== undefined) return '--resume continues the folder it names; leave out --out';
  if (options.resume !== undefined && options.force) return '--force starts a new run in a used folder; it does not go with --resume';
  if (options.resume !== undefined && options.shard !== undefined) return '--resume plays the part of the plan its folder was started with; leave out --shard';
  return null;
}

/** A sentence when the options do not go together; null when they do. */
export function conflictingOptions(configPath: string | undefined, options: RunCommandOptions): string | null {
  const resumeConflict = conflictingResumeOptions(options);
  if (resumeConflict !== null) return resumeConflict;
  if (configPath === undefined && selectedAgents(options) === undefined && options.resume === undefined) {
    return 'give an experiment file (e.g. configs/quickstart.yaml), or --agent for a first try without one (e.g. arcbench run --agent random --game crat)';
  }
  if (options.baseline === undefined && (options.failOnRegression || options.perGame || options.threshold !== undefined)) {
    return '--fail-on-regression, --threshold and --per-game judge a comparison: add --baseline <run-dir>';
  }
  return null;
}
