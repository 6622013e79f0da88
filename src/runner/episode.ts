/**
 * One episode: a new session (RESET with the agent's card), then the agent acts until the game is won,
 * a budget runs out, the agent stops, the run is interrupted, or something fails. Whatever happens, the
 * episode comes back as a record; only the scheduler decides what a failure means for the run.
 */
import { resolve } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FrameResponse, GameAction, GameDescriptor } from '../protocol/index.ts';
import { actionInputOf, ApiError, makeAction } from '../protocol/index.ts';
import type { Transport } from '../client/transport.ts';
import { TransportError } from '../client/transport.ts';
import type { Agent, AgentAction, AgentDecision, EpisodeOutcome, StopDecision } from './agentApi.ts';
import { isStop } from './agentApi.ts';
import type { ResolvedAgent } from './configLoader.ts';
import type { ExperimentConfig } from './configSchema.ts';
import { episodeScore } from './localScoring.ts';
import { RecordingWriter, recordingFileName } from './recordingWriter.ts';
import { createRng } from './rng.ts';
import { type RecordedRun, RunLedger } from './runLedger.ts';

export interface EpisodeSpec {
  readonly agent: ResolvedAgent;
  readonly game: GameDescriptor;
  /** 0-based index among this agent's episodes of this game. */
  readonly index: number;
  readonly seed: number;
}

export interface EpisodeEnvironment {
  readonly transport: Transport;
  readonly cardId: string;
  readonly budgets: ExperimentConfig['budgets'];
  /** Where recordings go; undefined when recordings are off. */
  readonly recordingsDir: string | undefined;
  /** Aborted on interruption (SIGINT) or when the run's wall time is spent. */
  readonly signal: AbortSignal;
  /** Why `signal` fired: `cancelled` (interrupted) or `time` (run wall time). */
  abortOutcome(): EpisodeOutcome;
  readonly baseDir: string;
  readonly nextRunSequence: () => number;
  /** Called after every answer of the service, for progress. */
  readonly onAction?: () => void;
}

/** One line of episodes.jsonl. */
export interface EpisodeRecord {
  agent: string;
  game_id: string;
  episode: number;
  seed: number;
  card_id: string;
  guid: string | null;
  outcome: EpisodeOutcome;
  stop_reason?: string;
  stop_details?: unknown;
  error?: { kind: string; message: string; status?: number; code?: string };
  actions: number;
  resets: number;
  levels_completed: number;
  /** The episode's own score: its best run, scored with the service's scoring code. */
  score: number;
  win_levels: number;
  final_state: string | null;
  runs: RecordedRun[];
  baselines: number[];
  game_tags: string[];
  recording: string | null;
  started_at: string;
  wall_seconds: number;
}

/** An agent that broke the API contract; the message says what to return instead. */
class AgentContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentContractError';
  }
}

const isCoordinate = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 63;

/** The agent's decision checked and frozen, so what is sent is exactly what is recorded. */
function checkedAction(decision: AgentDecision, label: string): AgentAction {
  const id = (decision as { id?: unknown }).id;
  const reasoning = (decision as { reasoning?: unknown }).reasoning;
  if (id === 0) return Object.freeze(reasoning === undefined ? { id: 0 as const } : { id: 0 as const, reasoning });
  if (id === 6) {
    const { x, y } = decision as { x?: unknown; y?: unknown };
    if (!isCoordinate(x) || !isCoordinate(y)) {
      throw new AgentContractError(`agent "${label}" returned ACTION6 with x=${String(x)}, y=${String(y)}; both must be integers 0..63 (use click(x, y))`);
    }
    return makeAction(6, x, y, reasoning);
  }
  if (id === 1 || id === 2 || id === 3 || id === 4 || id === 5 || id === 7) return makeAction(id, reasoning);
  throw new AgentContractError(
    `agent "${label}" returned ${JSON.stringify(decision)}; return action(1..5|7), click(x, y), reset() or stop()`,
  );
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

function describeError(error: unknown): NonNullable<EpisodeRecord['error']> {
  if (error instanceof ApiError) return { kind: 'api', message: error.message, status: error.status, code: String(error.code) };
  if (error instanceof TransportError) return { kind: `transport_${error.kind}`, message: error.message };
  if (error instanceof AgentContractError) return { kind: 'agent_contract', message: error.message };
  return { kind: 'agent', message: error instanceof Error ? error.message : String(error) };
}

export async function runEpisode(spec: EpisodeSpec, env: EpisodeEnvironment): Promise<EpisodeRecord> {
  const { agent, game } = spec;
  const started = Date.now();
  const deadline = env.budgets.episode_seconds === undefined ? Infinity : started + env.budgets.episode_seconds * 1000;
  const ledger = new RunLedger(env.nextRunSequence);
  const baselines = game.baseline_actions ?? [];
  const record: EpisodeRecord = {
    agent: agent.label,
    game_id: game.game_id,
    episode: spec.index,
    seed: spec.seed,
    card_id: env.cardId,
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
    game_tags: [...(game.tags ?? [])],
    recording: null,
    started_at: new Date(started).toISOString(),
    wall_seconds: 0,
  };
  let recording: RecordingWriter | undefined;
  let instance: Agent | undefined;

  try {
    if (env.signal.aborted) {
      record.outcome = env.abortOutcome();
      return record;
    }
    let frame: FrameResponse = await env.transport.reset(env.cardId, game.game_id);
    env.onAction?.();
    record.guid = frame.guid;
    record.win_levels = frame.win_levels;
    ledger.recordReset(frame);
    if (env.recordingsDir !== undefined) {
      const fileName = recordingFileName(game.game_id, agent.label, spec.index, frame.guid);
      recording = new RecordingWriter(env.recordingsDir, fileName);
      record.recording = `recordings/${fileName}`;
      recording.write(frame, { id: 0, data: {} });
    }
    instance = await agent.definition.create({
      params: agent.params,
      game,
      rng: createRng(spec.seed),
      seed: spec.seed,
      episode: spec.index,
      label: agent.label,
      signal: env.signal,
      resolvePath: (path) => resolve(env.baseDir, path),
    });

    for (let step = 0; ; step++) {
      // The in-process service answers in microtasks only; without a turn of the event loop now and
      // then, signals (SIGINT), timers (run wall time) and progress would wait for the whole run.
      if (step % 16 === 15) await yieldToEventLoop();
      if (frame.state === 'WIN') {
        record.outcome = 'win';
        break;
      }
      if (env.signal.aborted) {
        record.outcome = env.abortOutcome();
        break;
      }
      if (deadline !== Infinity && Date.now() >= deadline) {
        record.outcome = 'time';
        break;
      }
      // Checked before asking the agent: with max_actions 80 the 80th counted action is the last sent.
      if (ledger.actions >= env.budgets.max_actions) {
        record.outcome = 'budget';
        break;
      }
      const multiple = env.budgets.max_actions_per_level;
      const levelBaseline = baselines[ledger.levelIndex];
      if (multiple !== undefined && levelBaseline !== undefined && ledger.levelActions >= Math.ceil(multiple * levelBaseline)) {
        record.outcome = 'level_budget';
        break;
      }
      // Awaited only when it is a promise: most agents decide synchronously, and an await of a plain
      // value still costs a trip through the microtask queue on every action.
      const answer = instance.act(frame, { step, actions: ledger.actions, levelActions: ledger.levelActions });
      const decision = isThenable(answer) ? await answer : answer;
      if (decision === null || typeof decision !== 'object') {
        throw new AgentContractError(`agent "${agent.label}" returned ${String(decision)}; return an action, reset() or stop()`);
      }
      if (isStop(decision)) {
        const stopped = decision as StopDecision;
        record.outcome = 'agent_stop';
        if (stopped.reason !== undefined) record.stop_reason = stopped.reason;
        if (stopped.details !== undefined) record.stop_details = stopped.details;
        break;
      }
      const action = checkedAction(decision, agent.label);
      if (action.id !== 0 && frame.state === 'GAME_OVER') {
        throw new AgentContractError(`agent "${agent.label}" sent a game action after GAME_OVER; return reset() or stop() once the game is over`);
      }
      frame =
        action.id === 0
          ? await env.transport.reset(env.cardId, game.game_id, record.guid)
          : await env.transport.act(env.cardId, game.game_id, record.guid, action as GameAction);
      env.onAction?.();
      if (action.id === 0) ledger.recordReset(frame);
      else ledger.recordAction(frame);
      recording?.write(frame, actionInputOf(game.game_id, action));
    }
    record.final_state = frame.state;
  } catch (error) {
    record.outcome = 'error';
    record.error = describeError(error);
  } finally {
    recording?.close();
    record.runs = ledger.recordedRuns();
    record.actions = record.runs.reduce((sum, run) => sum + run.actions, 0);
    record.resets = record.runs.reduce((sum, run) => sum + run.resets, 0);
    record.levels_completed = record.runs.reduce((best, run) => Math.max(best, run.levels_completed), 0);
    record.score = episodeScore(record);
    record.wall_seconds = (Date.now() - started) / 1000;
    if (instance?.finish) {
      try {
        await instance.finish({ outcome: record.outcome, actions: record.actions, levelsCompleted: record.levels_completed });
      } catch (error) {
        // A failing clean-up hook does not undo the episode's play; it is noted, not fatal.
        record.stop_details = { ...(record.stop_details as object), finish_error: (error as Error).message };
      }
    }
  }
  return record;
}
