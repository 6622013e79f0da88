/**
 * The plugin entry point. A plugin module default-exports `defineAgent({ name, params?, create })`; the
 * runner validates the experiment's params with `params` (a zod schema; none means the agent takes no
 * params), calls `create` once per episode, then asks the agent for one decision per frame until the
 * game is won, a budget runs out, or the agent stops.
 */
import { z } from 'zod';
import type { Agent, AgentContext } from './contract.ts';
import type { AgentDescription } from './description.ts';

const AGENT_BRAND = Symbol.for('arcbench.agent-definition');

export interface AgentDefinition<S extends z.ZodType = z.ZodType> {
  /** A short name: letters, digits, `-` and `_`; it appears in file names and tables. */
  readonly name: string;
  readonly description?: string;
  /** Schema of the agent's params; make it strict (z.strictObject) so typos are errors. */
  readonly params: S;
  create(context: AgentContext<z.output<S>>): Agent | Promise<Agent>;
  /**
   * What the runner needs to know of the agent with these params (parsed, defaults applied): whether it
   * calls a model, its calls' cost, its longest decision. Without it the agent is not estimated.
   */
  describe?(params: z.output<S>): AgentDescription;
  /**
   * Releases what the definition keeps between episodes (a Python agent's fork server), called when a
   * run ends; an episode after it starts them anew. Resolves once they are gone.
   */
  close?(): Promise<void>;
}

/** What a plugin passes: `params` may be left out by an agent that takes none. */
export type AgentDeclaration<S extends z.ZodType> = Omit<AgentDefinition<S>, 'params'> & { readonly params?: S };

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const NO_PARAMS = z.strictObject({});

/** Declares an agent plugin; default-export its result. */
export function defineAgent<S extends z.ZodType = typeof NO_PARAMS>(declaration: AgentDeclaration<S>): AgentDefinition<S> {
  const { name } = declaration;
  if (typeof name !== 'string' || !AGENT_NAME.test(name)) {
    throw new TypeError(`defineAgent: name ${JSON.stringify(name)} must be letters, digits, "-" or "_", starting with a letter or digit`);
  }
  const params = declaration.params ?? (NO_PARAMS as unknown as S);
  if (typeof params.safeParse !== 'function') {
    throw new TypeError(`defineAgent(${name}): params must be a zod schema, e.g. z.strictObject({ depth: z.int().default(3) }), or left out`);
  }
  if (typeof declaration.create !== 'function') throw new TypeError(`defineAgent(${name}): create must be a function`);
  if (declaration.close !== undefined && typeof declaration.close !== 'function') throw new TypeError(`defineAgent(${name}): close must be a function`);
  if (declaration.describe !== undefined && typeof declaration.describe !== 'function') {
    throw new TypeError(`defineAgent(${name}): describe must be a function of the params, e.g. describe: () => ({ callsModel: false })`);
  }
  return Object.freeze({ ...declaration, params, [AGENT_BRAND]: true });
}

/**
 * True for a value made by defineAgent. The brand is a global symbol, so a plugin that imported
 * another copy of this module (a different loader instance) is still recognised.
 */
export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AGENT_BRAND] === true;
}

/** An agent as an experiment plays it: its label, how it was named (`use`), its definition and parsed params. */
export interface ResolvedAgent {
  readonly label: string;
  readonly use: string;
  readonly definition: AgentDefinition;
  /** Params as parsed by the agent's schema (defaults applied). */
  readonly params: unknown;
  /** For one arm of a factorial entry (src/runner/config/factors.ts): the entry it came from and its levels. */
  readonly arm?: ArmLevels;
}

/** One arm's place in its design: the entry's base label (`of`) and its level of every factor, in declaration order. */
export interface ArmLevels {
  readonly of: string;
  readonly levels: Readonly<Record<string, string | number | boolean>>;
}
