/**
 * What an agent is, as its author sees it: the context it is created with, the decisions it returns,
 * and the counters it is shown. The runner is written against these types and nothing else of a plugin.
 */
import type { FrameResponse, GameAction, GameDescriptor } from '../protocol/index.ts';
import type { Rng } from './rng.ts';
import type { ModelCallTranscript } from './transcript.ts';
import type { ModelCallUsage } from './usage.ts';

/** RESET of the agent's own session: a level reset, or a full reset right after a level began (docs/protocol.md §4). */
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

/**
 * How an episode ended. `win`: the game was won; `agent_stop`: the agent stopped; `budget` and
 * `level_budget`: an action budget cut it; `time`: a wall-clock budget (or an agent that missed it);
 * `cost`: a dollar budget; `cancelled`: the run was interrupted; `error`: something failed.
 */
export type EpisodeOutcome = 'win' | 'agent_stop' | 'budget' | 'level_budget' | 'time' | 'cost' | 'cancelled' | 'error';

/** Why an episode ended, as the agent's `finish` hook sees it. */
export interface EpisodeEnd {
  readonly outcome: EpisodeOutcome;
  readonly actions: number;
  readonly levelsCompleted: number;
}

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
  /** Aborted when the run is interrupted or the episode's time is up; long-thinking agents give up on it. */
  readonly signal: AbortSignal;
  /** Resolves a path relative to the experiment file's folder (for params that name files). */
  resolvePath(path: string): string;
  /**
   * Reports one model call's tokens (and cost, if the agent knows it). The runner adds it to the step
   * being decided, so usage is kept even when a budget, an error or a stop ends the episode.
   */
  reportUsage(call: ModelCallUsage): void;
  /** The scorecard the episode's session counts on. */
  readonly cardId?: string;
  /** The experiment's budgets: the runner enforces them; an agent that plans may read them. */
  readonly budgets?: Readonly<{ max_actions: number; max_actions_per_level?: number; episode_seconds?: number; max_cost_usd?: number }>;
  /** Writes a line to the run's run.log (an agent process's output goes there this way). */
  log?(level: 'debug' | 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
  /**
   * Keeps one model call's transcript (what was sent, what came back, its usage) with the episode, for
   * the viewer and `arcbench export`; a no-op when the config says `transcripts: false`. Report the
   * call's usage with reportUsage as well: the transcript is a record, not the count.
   */
  keepTranscript(call: ModelCallTranscript): void;
  /**
   * False when the config says `transcripts: false`: keepTranscript then keeps nothing, so an agent may
   * skip making the transcript at all. Undefined (a context made outside the runner) means kept.
   */
  readonly keepsTranscripts?: boolean;
}

/**
 * One episode's agent: asked for a decision after every frame response.
 *
 * An agent that implements both `snapshot` and `restore` can be continued after its process died: the
 * runner takes a snapshot right after each decision and keeps it in the run folder's checkpoint, and
 * `arcbench resume` creates the agent again (same context) and calls `restore` with the last one
 * before asking for the next decision. An agent without them is played again from a new RESET.
 */
export interface Agent {
  act(frame: FrameResponse, step: StepInfo): AgentDecision | Promise<AgentDecision>;
  /**
   * Everything the agent needs to go on as if it had never stopped (its rng's `saveState()`, its
   * memory, its conversation), as a JSON-serialisable value. Called after every decision, between
   * `act` returning and the action being sent: keep it cheap, and return a copy, not state the agent
   * goes on changing (the runner may hold it until after the next decision).
   */
  snapshot?(): unknown;
  /** Puts back a state `snapshot` returned, on a freshly created agent of the same episode. */
  restore?(state: unknown): void | Promise<void>;
  /** Called once when the episode ends, whatever the reason: release files, sockets, models. */
  finish?(end: EpisodeEnd): void | Promise<void>;
}
