/**
 * The agent plugin API. A plugin module default-exports `defineAgent({ name, params, create })`; the
 * runner validates the experiment's params with `params` (a zod schema), calls `create` once per
 * episode, then asks the agent for one decision per frame until the game is won, a budget runs out,
 * or the agent stops.
 */
import type { z } from 'zod';
import type { FrameResponse, GameAction, GameDescriptor } from '../protocol/index.ts';
import { makeAction } from '../protocol/index.ts';
import type { Rng } from './rng.ts';

/** RESET of the agent's own session: a level reset, or a full reset right after a level began (SPEC §4). */
export interface ResetAction {
  readonly id: 0;
  readonly reasoning?: unknown;
}

/** Anything the agent can send: a game action (1..7, ACTION6 with x, y) or a RESET. */
export type AgentAction = GameAction | ResetAction;

/** The agent ends its episode; `reason` and `details` land in episodes.jsonl. */
export interface StopDecision {
  readonly stop: true;
  readonly reason?: string;
  readonly details?: unknown;
}

export type AgentDecision = AgentAction | StopDecision;

/** Counters of the episode so far, as the service counts them. */
export interface StepInfo {
  /** Decisions asked so far in this episode (0 for the first). */
  readonly step: number;
  /** Counted actions of the episode: game actions plus level resets. */
  readonly actions: number;
  /** Counted actions on the current level of the current run. */
  readonly levelActions: number;
}

/** Why an episode ended, as the agent's `finish` hook sees it. */
export interface EpisodeEnd {
  readonly outcome: EpisodeOutcome;
  readonly actions: number;
  readonly levelsCompleted: number;
}

export type EpisodeOutcome = 'win' | 'agent_stop' | 'budget' | 'level_budget' | 'time' | 'cancelled' | 'error';

/** What an agent gets when its episode starts. */
export interface AgentContext<P> {
  /** The params of the experiment's agent entry, parsed by the agent's schema (defaults applied). */
  readonly params: P;
  /** The game's descriptor, with `baseline_actions` (one per level) and input `tags`. */
  readonly game: GameDescriptor;
  /** Seeded from (run seed, agent label, game id, episode index): same seed, same choices. */
  readonly rng: Rng;
  readonly seed: number;
  /** 0-based episode index for this agent and game. */
  readonly episode: number;
  /** The agent's label in the experiment. */
  readonly label: string;
  /** Aborted when the run is interrupted; long-thinking agents should give up on it. */
  readonly signal: AbortSignal;
  /** Resolves a path relative to the experiment file's folder (for params that name files). */
  resolvePath(path: string): string;
}

/** One episode's agent: asked for a decision after every frame response. */
export interface Agent {
  act(frame: FrameResponse, step: StepInfo): AgentDecision | Promise<AgentDecision>;
  /** Called once when the episode ends, whatever the reason: release files, sockets, models. */
  finish?(end: EpisodeEnd): void | Promise<void>;
}

const AGENT_BRAND = Symbol.for('arcbench.agent-definition');

export interface AgentDefinition<S extends z.ZodType = z.ZodType> {
  /** A short name: letters, digits, `-` and `_`; it appears in file names and tables. */
  readonly name: string;
  readonly description?: string;
  /** Schema of the agent's params; make it strict (z.strictObject) so typos are errors. */
  readonly params: S;
  create(context: AgentContext<z.output<S>>): Agent | Promise<Agent>;
}

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Declares an agent plugin; default-export its result. */
export function defineAgent<S extends z.ZodType>(definition: AgentDefinition<S>): AgentDefinition<S> {
  if (!AGENT_NAME.test(definition.name ?? '')) {
    throw new TypeError(`defineAgent: name ${JSON.stringify(definition.name)} must be letters, digits, "-" or "_", starting with a letter or digit`);
  }
  if (typeof definition.params?.safeParse !== 'function') {
    throw new TypeError(`defineAgent(${definition.name}): params must be a zod schema, e.g. z.strictObject({})`);
  }
  if (typeof definition.create !== 'function') throw new TypeError(`defineAgent(${definition.name}): create must be a function`);
  return Object.freeze({ ...definition, [AGENT_BRAND]: true });
}

/**
 * True for a value made by defineAgent. The brand is a global symbol, so a plugin that imported
 * another copy of this module (a different loader instance) is still recognised.
 */
export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AGENT_BRAND] === true;
}

/** A simple game action (ACTION1..5, ACTION7). */
export function action(id: 1 | 2 | 3 | 4 | 5 | 7, reasoning?: unknown): GameAction {
  return makeAction(id, reasoning);
}

/** ACTION6 at display cell (x, y), origin top-left, 0..63. */
export function click(x: number, y: number, reasoning?: unknown): GameAction {
  return makeAction(6, x, y, reasoning);
}

/** RESET of the current session. */
export function reset(reasoning?: unknown): ResetAction {
  return Object.freeze(reasoning === undefined ? { id: 0 as const } : { id: 0 as const, reasoning });
}

/** Ends the episode by the agent's own choice. */
export function stop(reason?: string, details?: unknown): StopDecision {
  return Object.freeze({ stop: true as const, ...(reason === undefined ? {} : { reason }), ...(details === undefined ? {} : { details }) });
}

export function isStop(decision: AgentDecision): decision is StopDecision {
  return (decision as StopDecision).stop === true;
}
