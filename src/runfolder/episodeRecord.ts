/**
 * One line of episodes.jsonl: everything known about a finished episode, enough to score it again with
 * the service's scoring code and to find its recording.
 */
import type { EpisodeOutcome } from '../agent/contract.ts';
import { emptyUsage, type ModelCallRecord, type UsageTotals } from '../agent/usage.ts';
import type { GameDescriptor } from '../protocol/index.ts';
import type { RunEntry } from '../protocol/index.ts';
import { buildRunEntry, type RunState } from '../reference/scoring.ts';

/** An attempt at an episode that a worker started and never finished. */
export interface LostAttempt {
  worker: string;
  card_id: string;
  started_at: string;
}

export interface EpisodeRecord {
  /** The episode's key in the plan: agent label, game id, episode index. */
  agent: string;
  game_id: string;
  episode: number;
  seed: number;
  /** The attempt of the run that played it: 1, then one more per resume. */
  attempt: number;
  /** Set when the run's own stop (interrupt, run_seconds) ended the episode before its own end; a resume plays it again. */
  cut_by_run_stop?: true;
  /** Set on an old record a later attempt played again (`--retry-errors`, or cut short); kept so nothing is lost. */
  superseded?: { by_attempt: number; reason: string };
  card_id: string;
  guid: string | null;
  outcome: EpisodeOutcome;
  stop_reason?: string;
  stop_details?: unknown;
  error?: { kind: string; message: string; status?: number; code?: string; stack?: string };
  /** Counted actions, as the service counts them: those whose answer was lost included (`answers_lost`). */
  actions: number;
  /**
   * Actions that reached the service but whose answer was lost (another request's answer came in its
   * place): counted in `actions` and in the runs as the service counted them. Absent when none.
   */
  answers_lost?: number;
  resets: number;
  levels_completed: number;
  /** The episode's own score: its best run, scored with the service's scoring code (0 to 115); null when its baselines are unknown. */
  score: number | null;
  win_levels: number;
  final_state: string | null;
  runs: RecordedRun[];
  /** Baselines per level; empty when unknown (then `baselines_known` is false and scores are not computed). */
  baselines: number[];
  /** False when neither the game list nor the scorecard gave the baselines (docs/protocol.md §7a); absent means true. */
  baselines_known?: boolean;
  game_tags: string[];
  /** The game's title and frame rate as its descriptor gave them (absent from records of older versions, or where the service gave none). */
  game_title?: string;
  game_fps?: number;
  /** Model usage the agent reported (all zero for agents that call no model). */
  usage: UsageTotals;
  /** Every model call the agent reported, with the step it was made in; absent when there was none. */
  model_calls?: ModelCallRecord[];
  recording: string | null;
  /** Its transcript of model calls (transcripts/…), when the agent kept any and transcripts are on. */
  transcript?: string | null;
  /**
   * Worker pool only: earlier attempts at this episode lost with their worker (it died or stalled); each
   * session's actions stay on that worker's card. This record is of a new session from a new RESET.
   */
  lost_attempts?: LostAttempt[];
  /** Continued by a resume from its checkpoint, on its own session: the attempt it began in and the first step played after the resume. */
  /**
   * Continued by a resume from its checkpoint at `from_step`; `calls_made_again`: model calls the killed
   * attempt had made for a decision it never sent, which the resumed agent made again (both billed, both counted).
   */
  continued?: { from_attempt: number; from_step: number; calls_made_again?: number };
  /** Played again from a new RESET by a resume although it was in flight with a checkpoint: why it could not be continued. */
  restarted?: { reason: string };
  started_at: string;
  wall_seconds: number;
  /**
   * Per level, wall seconds from the episode's start to the first answer that showed the level completed
   * (in any of its runs); absent in records of versions before it was kept, and in an episode a resume
   * continued (when its earlier levels were completed was lost with the process that played them).
   */
  level_seconds?: number[];
}

/** The record of an episode about to start: an error until something better is known. */
export function startedRecord(agent: string, game: GameDescriptor, episode: number, seed: number, cardId: string, started: number): EpisodeRecord {
  const baselines = game.baseline_actions ?? [];
  return {
    agent,
    game_id: game.game_id,
    episode,
    seed,
    // The recorder stamps the attempt that plays it; a run's first attempt is 1.
    attempt: 1,
    card_id: cardId,
    guid: null,
    outcome: 'error',
    actions: 0,
    resets: 0,
    levels_completed: 0,
    score: 0,
    win_levels: baselines.length,
    final_state: null,
    runs: [],
    baselines: [...baselines],
    baselines_known: game.baseline_actions !== undefined,
    game_tags: [...(game.tags ?? [])],
    ...(game.title == null ? {} : { game_title: game.title }),
    ...(game.default_fps === undefined ? {} : { game_fps: game.default_fps }),
    usage: emptyUsage(),
    recording: null,
    started_at: new Date(started).toISOString(),
    wall_seconds: 0,
  };
}

/** A run as it goes to episodes.jsonl: enough to rebuild its scorecard entry. */
export interface RecordedRun {
  guid: string;
  sequence: number;
  actions: number;
  resets: number;
  levels_completed: number;
  completion_actions: number[];
  state: RunState;
}

/** The scorecard run entry of a recorded run, built by the service's own scoring code. */
export function runEntryOf(gameId: string, baselines: readonly number[], run: RecordedRun): RunEntry {
  return buildRunEntry({
    gameId,
    guid: run.guid,
    baselines,
    completionActionCounts: run.completion_actions,
    levelsCompleted: run.levels_completed,
    actions: run.actions,
    resets: run.resets,
    state: run.state,
  });
}
