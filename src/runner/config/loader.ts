/**
 * Reads an experiment file: YAML → `${VAR}` expansion → strict schema → each agent loaded and its
 * params checked by the agent's own schema. Every problem is reported as `file: path: sentence`.
 */
import { ArcbenchError } from '../../errors.ts';
import { Redactor } from '../../redaction.ts';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseDocument, type YAMLError } from 'yaml';
import { ISSUE_OPTIONS, issueLines } from '../../protocol/zodIssues.ts';
import { type ExperimentConfig, experimentSchema } from './schema.ts';
import { resolveAgents } from './resolveAgents.ts';
import type { ResolvedAgent } from '../../agent/defineAgent.ts';
import { expandEnvironment, MissingVariableError } from './envExpansion.ts';
import { applyOverrides, type ConfigOverrides, firstTryConfig, unknownLabels } from './overrides.ts';

/** A problem with the experiment file or the command line; the CLI exits 2 on it. */
export class ConfigError extends ArcbenchError {
  constructor(message: string) {
    super('CONFIG_INVALID', message);
  }
}

export type { ResolvedAgent } from '../../agent/defineAgent.ts';

export interface Experiment {
  /** Absolute path of the experiment file (or a name, for configs built in code). */
  readonly file: string;
  /** Folder relative paths in the experiment start from. */
  readonly baseDir: string;
  readonly config: ExperimentConfig;
  readonly agents: readonly ResolvedAgent[];
  /** The config's secrets (what it took from the environment, and key-named fields), for every output. */
  readonly redactor: Redactor;
  /** With `keysNotNeeded`: the secrets' variables the config names that are unset (left as written). */
  readonly unsetKeys?: readonly string[];
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** Command-line overrides, applied before validation so they are checked like the file. */
  overrides?: ConfigOverrides;
  /** For what plays nothing (`plan`, `validate`): an unset `${…KEY}` is no error; `run` still needs it. */
  keysNotNeeded?: boolean;
}

export async function loadExperiment(file: string, options: LoadOptions = {}): Promise<Experiment> {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the experiment file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the path`);
  }
  return parseExperiment(text, { file: path, baseDir: dirname(path), ...options });
}

export async function parseExperiment(text: string, options: LoadOptions & { file: string; baseDir: string }): Promise<Experiment> {
  const where = basename(options.file);
  const taken: string[] = [];
  // Error lines may quote a value; one that came from the environment is a secret.
  const fail = (lines: string[]): never => {
    const redactor = new Redactor(taken);
    throw new ConfigError(lines.map((line) => `${where}: ${redactor.text(line)}`).join('\n'));
  };

  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) fail(document.errors.map(yamlErrorLines));
  let raw: unknown = document.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(['(top level): expected a mapping with name, agents and the other fields']);

  const unsetKeys: string[] | undefined = options.keysNotNeeded === true ? [] : undefined;
  try {
    raw = expandEnvironment(raw, options.env ?? process.env, taken, unsetKeys);
  } catch (error) {
    if (error instanceof MissingVariableError) fail([...error.lines]);
    throw error;
  }
  const experiment = await resolveExperiment(applyOverrides(raw as Record<string, unknown>, options.overrides ?? {}), options, fail, new Redactor(taken));
  return unsetKeys === undefined || unsetKeys.length === 0 ? experiment : { ...experiment, unsetKeys };
}

/** What `Experiment.file` (and run.json's config_file) says for an experiment made from flags alone. */
export const COMMAND_LINE_EXPERIMENT = '(command line)';

/**
 * The experiment of a config-less first try, `arcbench run --agent random --game crat`: the named
 * agents (built-in names or plugin paths, relative to `baseDir`) and the overrides, the schema's
 * defaults for everything else.
 */
export async function experimentFromFlags(agents: readonly string[], options: LoadOptions & { baseDir: string }): Promise<Experiment> {
  const file = COMMAND_LINE_EXPERIMENT;
  const fail = (lines: string[]): never => {
    throw new ConfigError(lines.map((line) => `${file}: ${line}`).join('\n'));
  };
  // --agents names the agents to play here, not labels to keep: it becomes the config's agent list.
  const { agents: _asListed, ...overrides } = options.overrides ?? {};
  return resolveExperiment(applyOverrides(firstTryConfig(agents), overrides), { ...options, overrides, file }, fail, new Redactor());
}

/** Validates a raw config (overrides applied) and loads its agents, keeping those --agents selects. */
async function resolveExperiment(
  raw: Record<string, unknown>,
  options: LoadOptions & { file: string; baseDir: string },
  fail: (lines: string[]) => never,
  redactor: Redactor,
): Promise<Experiment> {
  const parsed = experimentSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) fail(issueLines(parsed.error.issues));
  const config = parsed.data as ExperimentConfig;
  // The games' folder is the file's, as an agent's path is: the same config plays from any working directory.
  if (config.games_dir !== undefined) config.games_dir = resolve(options.baseDir, config.games_dir);

  const resolved = await resolveAgents(config, options);
  // Arms are agents like any other from here on: competition checks, --agents and run.json see them expanded.
  config.agents = resolved.entries;
  const { agents } = resolved;
  const problems = [...competitionProblems(config), ...resolved.problems];
  if (problems.length > 0) fail(problems);
  const wanted = options.overrides?.agents;
  if (wanted === undefined) return { file: options.file, baseDir: options.baseDir, config, agents, redactor };
  const unknown = unknownLabels(
    wanted,
    agents.map((a) => a.label),
  );
  if (unknown !== null) fail([unknown]);
  const kept = agents.map((agent, i) => ({ agent, entry: config.agents[i]! })).filter(({ agent }) => wanted.includes(agent.label));
  return { file: options.file, baseDir: options.baseDir, config: { ...config, agents: kept.map((k) => k.entry) }, agents: kept.map((k) => k.agent), redactor };
}

/**
 * What competition mode implies for the experiment (docs/protocol.md §5): a key may hold one open card, and a card
 * one session per game, so one agent and one episode per game per run.
 */
function competitionProblems(config: ExperimentConfig): string[] {
  if (!config.scorecard.competition_mode) return [];
  const problems: string[] = [];
  if (config.agents.length > 1) {
    problems.push(
      `scorecard.competition_mode: a key may hold one open competition card at a time, so a run can evaluate one agent, and this one lists ${config.agents.length}; ` +
        'run them one at a time (one config per agent), or turn competition_mode off',
    );
  }
  if (config.episodes > 1) {
    problems.push(`scorecard.competition_mode: a competition card takes one session per game, so episodes must be 1, not ${config.episodes}`);
  }
  if (config.repeats > 1) {
    problems.push(
      `scorecard.competition_mode: a competition card takes one session per game, so repeats must be 1, not ${config.repeats}; run the config again for another draw`,
    );
  }
  return problems;
}

/**
 * A YAML syntax error as `line L, column C: what` and the code frame under it. The yaml library ends
 * its first line with the position again and a colon; the frame follows on lines of its own.
 */
function yamlErrorLines(error: YAMLError): string {
  const [first = '', ...frame] = error.message.split('\n');
  const what = first.replace(/ at line \d+, column \d+:$/, '');
  const at = error.linePos?.[0];
  const where = at === undefined ? '' : `line ${at.line}, column ${at.col}: `;
  const shown = frame.filter((line) => line.trim() !== '').map((line) => `    ${line}`);
  return [`${where}${what}`, ...shown].join('\n');
}

/**
 * The config as run.json keeps it: everything resolved, every key-named field (the API key, agents'
 * keys) and every value taken from the environment redacted.
 */
export function configWithoutSecrets(config: ExperimentConfig, redactor: Redactor = new Redactor()): ExperimentConfig {
  return redactor.value(config) as ExperimentConfig;
}
