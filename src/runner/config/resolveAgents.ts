/**
 * The experiment's agent entries made into the agents a run plays: each entry's agent loaded, an entry
 * with `factors` expanded into its arms (factors.ts), every params checked by the agent's own schema,
 * and labels checked (length, unique). Problems come back as `path: sentence` lines, all at once.
 */
import type { AgentDefinition, ResolvedAgent } from '../../agent/defineAgent.ts';
import { AgentLoadError, loadAgent } from '../../agent/pluginLoader.ts';
import { ISSUE_OPTIONS, issueLines } from '../../protocol/zodIssues.ts';
import { armCount, armLabel, expandFactors, MAX_ARMS_PER_ENTRY } from './factors.ts';
import { type AgentEntry, type ExperimentConfig, MAX_LABEL_LENGTH } from './schema.ts';

export interface ResolvedAgents {
  readonly agents: ResolvedAgent[];
  /** One plain entry per agent (arms expanded, each with its label and params): what config.agents becomes. */
  readonly entries: AgentEntry[];
  readonly problems: string[];
}

interface Options {
  readonly baseDir: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

export async function resolveAgents(config: ExperimentConfig, options: Options): Promise<ResolvedAgents> {
  const result: ResolvedAgents = { agents: [], entries: [], problems: [] };
  const labels = new Map<string, string>();
  // A design is known by its entry's label (its arms' prefix): two of one name would be read as one.
  const designs = new Map<string, number>();
  for (const [i, entry] of config.agents.entries()) {
    const definition = await loadEntry(entry, i, options, result.problems);
    if (definition === undefined) continue;
    for (const candidate of candidatesOf(entry, definition, i, result.problems, designs)) {
      const agent = checkedAgent(candidate, definition, labels, result.problems);
      if (agent === undefined) continue;
      result.agents.push(agent);
      const { factors: _expanded, ...plain } = entry;
      result.entries.push({ ...plain, label: agent.label, params: candidate.rawParams });
    }
  }
  return result;
}

async function loadEntry(entry: AgentEntry, i: number, options: Options, problems: string[]): Promise<AgentDefinition | undefined> {
  try {
    return await loadAgent(entry.use, options.baseDir, {
      ...(entry.python === undefined ? {} : { python: entry.python }),
      ...(entry.model_gateway === undefined ? {} : { modelGateway: entry.model_gateway }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (error) {
    if (!(error instanceof AgentLoadError)) throw error;
    problems.push(`agents[${i}].${error.field}: ${error.message}`);
    return undefined;
  }
}

/** One agent an entry stands for, before its params are checked: the entry itself, or one of its arms. */
interface Candidate {
  readonly label: string;
  readonly use: string;
  readonly rawParams: Record<string, unknown>;
  /** The entry's index in agents. */
  readonly index: number;
  /** Said after each of its problems: '', or ` (arm llm[model=a])`. */
  readonly which: string;
  readonly arm?: ResolvedAgent['arm'];
}

function candidatesOf(entry: AgentEntry, definition: AgentDefinition, i: number, problems: string[], designs: Map<string, number>): Candidate[] {
  const base = entry.label ?? definition.name;
  const params = entry.params ?? {};
  if (entry.factors === undefined) return [{ label: base, use: entry.use, rawParams: params, index: i, which: '' }];
  const earlier = designs.get(base);
  if (earlier !== undefined) {
    problems.push(
      `agents[${i}].label: agents[${earlier}] also declares factors under the name "${base}"; give each such entry its own label, which names its arms`,
    );
    return [];
  }
  designs.set(base, i);
  const count = armCount(entry.factors);
  if (count > MAX_ARMS_PER_ENTRY) {
    problems.push(`agents[${i}].factors: these levels make ${count} arms, more than ${MAX_ARMS_PER_ENTRY}; drop levels, or split the entry`);
    return [];
  }
  return expandFactors(params, entry.factors).map((arm) => {
    const label = armLabel(base, arm.levels);
    return { label, use: entry.use, rawParams: arm.params, index: i, which: ` (arm ${label})`, arm: { of: base, levels: arm.levels } };
  });
}

function checkedAgent(candidate: Candidate, definition: AgentDefinition, labels: Map<string, string>, problems: string[]): ResolvedAgent | undefined {
  const params = checkParams(definition, candidate.rawParams);
  if (typeof params === 'string') {
    problems.push(`agents[${candidate.index}].params: ${params}${candidate.which}`);
    return undefined;
  }
  if (!params.success) {
    problems.push(...issueLines(params.error.issues, ['agents', candidate.index, 'params']).map((line) => `${line}${candidate.which}`));
    return undefined;
  }
  const { label } = candidate;
  if (label.length > MAX_LABEL_LENGTH) {
    problems.push(labelTooLong(candidate));
    return undefined;
  }
  const earlier = labels.get(label);
  if (earlier !== undefined) {
    problems.push(`agents[${candidate.index}].label: "${label}" is already used by ${earlier}; give each entry its own label${candidate.which}`);
    return undefined;
  }
  labels.set(label, `agents[${candidate.index}]${candidate.which}`);
  return { label, use: candidate.use, definition, params: params.data, ...(candidate.arm === undefined ? {} : { arm: candidate.arm }) };
}

function labelTooLong(candidate: Candidate): string {
  if (candidate.arm !== undefined) {
    return (
      `agents[${candidate.index}].label: the arm name ${candidate.label} is ${candidate.label.length} characters long, more than the ${MAX_LABEL_LENGTH} a label may have (it names files); ` +
      'give the entry a shorter label, or its factors shorter names (e.g. effort: { param: reasoning_effort, levels: [low, high] })'
    );
  }
  return `agents[${candidate.index}].label: the agent's name (${candidate.label.length} characters) would be the label, which names files; give the entry a label of at most ${MAX_LABEL_LENGTH} characters`;
}

/**
 * The agent's params through its own schema. A schema that throws (a plugin's refinement that failed
 * on a value it did not expect) is a sentence for the user, never a stack trace.
 */
function checkParams(definition: AgentDefinition, params: unknown): ReturnType<AgentDefinition['params']['safeParse']> | string {
  try {
    return definition.params.safeParse(params ?? {}, ISSUE_OPTIONS);
  } catch (error) {
    return `agent "${definition.name}" could not check its params: ${(error as Error).message}; check the values given against its parameters (arcbench schema lists them)`;
  }
}
