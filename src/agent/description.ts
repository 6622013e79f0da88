/**
 * What an agent tells the runner of itself, so that the runner knows no agent's parameter names: whether
 * it calls a model, how its calls cost on a game (for `plan --estimate` and the budget check at the
 * start of `run`), and how long one of its decisions can take (for the warning about the hosted
 * service's idle close). A TypeScript plugin returns it from `describe(params)`; an agent process
 * declares it in its hello (docs/agent-protocol.md).
 */
import type { GameDescriptor } from '../protocol/index.ts';
import type { Pricing } from './usage.ts';

/** What the runner knows of a game before it is played, for an agent to estimate its calls on it. */
export interface EstimateGame {
  readonly game: GameDescriptor;
  /** Its first frame as hex text, in characters; a whole 64×64 grid's when the game is not built in. */
  readonly frameTextChars: number;
  /** How many actions it offers; all seven when the game is not built in. */
  readonly actions: number;
}

/** One agent's calls as the prompt model sees them, in tokens; src/analysis/costEstimate.ts does the arithmetic. */
export interface CallShape {
  /** Sent on every call: system prompt and tools. */
  readonly fixedTokens: number;
  /** What one more turn adds to the conversation. */
  readonly turnTokens: number;
  /** The conversation is kept under this (older turns summarised). */
  readonly contextTokens: number;
  /** Output (reasoning included) per call. */
  readonly outputTokens: number;
  /** Actions decided by one call (1 unless the agent batches). */
  readonly actionsPerCall: number;
  /** Share (0..1) of each call's repeated prefix the provider's prompt cache is expected to serve; default 0. */
  readonly cachedShare?: number;
  /** The new part of each call is written to the cache at `pricing.cache_write` (Anthropic's breakpoints). */
  readonly cacheWrites?: boolean;
}

/** One agent's calls on one game, as the prompt model of src/analysis/costEstimate.ts counts them. */
export interface CallEstimate {
  readonly shape: CallShape;
  /** Dollars per million tokens; without them the cost is unknown (tokens are still estimated). */
  readonly pricing?: Pricing;
}

export interface AgentDescription {
  /** False: the agent calls no model (it costs nothing). Undefined: not said, so not estimated. */
  readonly callsModel?: boolean;
  /** The agent's calls on a game; an agent that calls a model without it is named as not estimated. */
  readonly costEstimate?: (game: EstimateGame) => CallEstimate;
  /** The longest one decision can take, in seconds (its model's timeout times its tries, say). */
  readonly longestDecisionSeconds?: number;
  /** How a user makes one decision shorter, as a clause: "lower params.timeout". */
  readonly shortenDecisionHint?: string;
  /** What of the agent's harness decides its scores beyond the model, for the run's harness card. */
  readonly harness?: HarnessFacts;
}

/** One fact of a harness card: a short text, a number, true/false, or null for "does not apply". */
export type HarnessFact = string | number | boolean | null;

/**
 * An agent's harness in facts (src/runner/harnessCard.ts makes the card). Use the documented names
 * where they fit (docs/results-and-report.md, "Harness cards": model, api, state_mode, compaction,
 * context_tokens, batch_size, frame_format, tools, reasoning, temperature, retries) so that cards
 * of different agents line up; add any other name for what else matters.
 */
export interface HarnessFacts {
  readonly facts?: Readonly<Record<string, HarnessFact>>;
  /** Prompt texts by name (`system`): the card keeps their SHA-256 only, never a text. */
  readonly prompts?: Readonly<Record<string, string>>;
}
