/**
 * One episode: a new session (RESET with the agent's card), then the agent acts until the game is won,
 * a budget runs out, the agent stops, the run is interrupted, or something fails. Whatever happens, the
 * episode comes back as a record; only the scheduler decides what a failure means for the run.
 */
import { resolve } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AgentContractError, checkedAction, isStop } from '../../agent/actions.ts';
import type { Agent, AgentAction, AgentContext, AgentDecision, EpisodeOutcome } from '../../agent/contract.ts';
import { createRng } from '../../agent/rng.ts';
import { addCall, callRecord, type ModelCallRecord, reasoningWithUsage } from '../../agent/usage.ts';
import type { Transport } from '../../client/transport.ts';
import type { FrameResponse, GameDescriptor } from '../../protocol/index.ts';
import { actionInputOf, makeAction } from '../../protocol/index.ts';
import type { ResolvedAgent } from '../config/loader.ts';
import { type RecordingFormat, RecordingWriter, recordingFileName } from '../results/recordingWriter.ts';
import { type Budgets, spentBudget } from './budgets.ts';
import { describeError } from './episodeError.ts';
import { episodeScore } from '../results/localScoring.ts';
import { type EpisodeRecord, startedRecord } from './episodeRecord.ts';
import { EpisodeCut, EpisodeStop } from './episodeStop.ts';
import { RunLedger } from './runLedger.ts';

export type { EpisodeRecord } from './episodeRecord.ts';

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
  readonly budgets: Budgets;
  /** Where recordings go, and how (gzip or plain JSON lines); undefined when recordings are off. */
  readonly recordings: { readonly dir: string; readonly format: RecordingFormat } | undefined;
  /** Aborted on interruption (SIGINT) or when the run's wall time is spent. */
  readonly signal: AbortSignal;
  /** Why `signal` fired: `cancelled` (interrupted) or `time` (run wall time). */
  abortOutcome(): EpisodeOutcome;
  readonly baseDir: string;
  readonly nextRunSequence: () => number;
  /** Called after every answer of the service, for progress. */
  readonly onAction?: () => void;
  /** Called for every model call the agent reports, for the run's dollar budget. */
  readonly onUsage?: (call: ModelCallRecord) => void;
}

/** What the steps of one episode share. */
interface EpisodePlay {
  readonly spec: EpisodeSpec;
  readonly env: EpisodeEnvironment;
  readonly record: EpisodeRecord;
  readonly ledger: RunLedger;
  readonly deadline: number;
  /** The agent's signal: the run's stop and the episode's deadline. */
  readonly stop: EpisodeStop;
  recording: RecordingWriter | undefined;
  agent: Agent | undefined;
  /** The step being decided, and the model calls reported in it (they go out with its action). */
  step: number;
  stepCalls: ModelCallRecord[];
  /** Set once the record is final: usage reported later (an abandoned call) has nowhere to go. */
  done: boolean;
}

export async function runEpisode(spec: EpisodeSpec, env: EpisodeEnvironment): Promise<EpisodeRecord> {
  const started = Date.now();
  const deadline = env.budgets.episode_seconds === undefined ? Infinity : started + env.budgets.episode_seconds * 1000;
  const play: EpisodePlay = {
    spec,
    env,
    record: startedRecord(spec.agent.label, spec.game, spec.index, spec.seed, env.cardId, started),
    ledger: new RunLedger(env.nextRunSequence),
    deadline,
    stop: new EpisodeStop(env.signal, env.abortOutcome, deadline),
    recording: undefined,
    agent: undefined,
    step: 0,
    stepCalls: [],
    done: false,
  };
  try {
    if (env.signal.aborted) play.record.outcome = env.abortOutcome();
    else play.record.final_state = (await playUntilEnd(play, await openSession(play))).state;
  } catch (error) {
    if (error instanceof EpisodeCut) {
      play.record.outcome = play.stop.outcome;
    } else {
      play.record.outcome = 'error';
      play.record.error = describeError(error);
    }
  } finally {
    play.stop.dispose();
    await closeRecording(play);
    summarise(play, started);
    await finishAgent(play);
    play.done = true;
  }
  return play.record;
}

/** A recording that cannot be written fails its episode (unless something failed it already). */
async function closeRecording(play: EpisodePlay): Promise<void> {
  try {
    await play.recording?.close();
  } catch (error) {
    if (play.record.outcome === 'error') return;
    play.record.outcome = 'error';
    play.record.error = describeError(error);
  }
}

/** The first RESET, the recording, and the agent, which sees the session's first frame next. */
async function openSession(play: EpisodePlay): Promise<FrameResponse> {
  const { spec, env, record } = play;
  const frame = await env.transport.reset(env.cardId, spec.game.game_id);
  env.onAction?.();
  record.guid = frame.guid;
  record.win_levels = frame.win_levels;
  play.ledger.recordReset(frame);
  if (env.recordings !== undefined) {
    const fileName = recordingFileName(spec.game.game_id, spec.agent.label, spec.index, frame.guid, env.recordings.format);
    play.recording = new RecordingWriter(env.recordings.dir, fileName, env.recordings.format);
    record.recording = `recordings/${fileName}`;
    play.recording.write(frame, { id: 0, data: {} });
  }
  // Raced against the stop like every decision: an agent that loads a model may outlive the deadline.
  play.agent = await play.stop.race(Promise.resolve(spec.agent.definition.create(agentContext(play))));
  return frame;
}

function agentContext(play: EpisodePlay): AgentContext<unknown> {
  const { spec, env } = play;
  return {
    params: spec.agent.params,
    game: spec.game,
    rng: createRng(spec.seed),
    seed: spec.seed,
    episode: spec.index,
    label: spec.agent.label,
    signal: play.stop.signal,
    resolvePath: (path) => resolve(env.baseDir, path),
    reportUsage: (call) => recordUsage(play, call),
  };
}

/** One reported model call, kept in the episode's totals, its list of calls, and the step's action. */
function recordUsage(play: EpisodePlay, call: Parameters<AgentContext<unknown>['reportUsage']>[0]): void {
  if (play.done) return;
  const checked = callRecord(call, play.step);
  addCall(play.record.usage, checked);
  play.record.model_calls ??= [];
  play.record.model_calls.push(checked);
  play.stepCalls.push(checked);
  play.env.onUsage?.(checked);
}

async function playUntilEnd(play: EpisodePlay, first: FrameResponse): Promise<FrameResponse> {
  const { record, ledger } = play;
  let frame = first;
  for (let step = 0; ; step++) {
    // The in-process service answers in microtasks only; without a turn of the event loop now and
    // then, signals (SIGINT), timers (run wall time) and progress would wait for the whole run.
    if (step % 16 === 15) await yieldToEventLoop();
    play.step = step;
    const ended = endBeforeStep(play, frame);
    if (ended !== undefined) {
      record.outcome = ended;
      return frame;
    }
    const decision = await decide(play, frame, step);
    if (isStop(decision)) {
      record.outcome = 'agent_stop';
      if (decision.reason !== undefined) record.stop_reason = decision.reason;
      if (decision.details !== undefined) record.stop_details = decision.details;
      return frame;
    }
    const action = checkedAction(decision, play.spec.agent.label);
    if (action.id !== 0 && frame.state === 'GAME_OVER') {
      throw new AgentContractError(`agent "${play.spec.agent.label}" sent a game action after GAME_OVER; return reset() or stop() once the game is over`);
    }
    frame = await send(play, action);
    if (action.id === 0) ledger.recordReset(frame);
    else ledger.recordAction(frame);
  }
}

/** Why the episode ends before the agent's next decision, if it does. */
function endBeforeStep(play: EpisodePlay, frame: FrameResponse): EpisodeOutcome | undefined {
  if (frame.state === 'WIN') return 'win';
  if (play.stop.signal.aborted) return play.stop.outcome;
  return spentBudget(play.env.budgets, play.ledger, play.record.baselines, play.deadline, play.record.usage);
}

async function decide(play: EpisodePlay, frame: FrameResponse, step: number): Promise<AgentDecision> {
  const { ledger } = play;
  // Awaited only when it is a promise: most agents decide synchronously, and an await of a plain
  // value still costs a trip through the microtask queue on every action.
  const answer = play.agent!.act(frame, { step, actions: ledger.actions, levelActions: ledger.levelActions });
  const decision = isThenable(answer) ? await play.stop.race(answer) : answer;
  if (decision === null || typeof decision !== 'object') {
    throw new AgentContractError(`agent "${play.spec.agent.label}" returned ${String(decision)}; return an action, reset() or stop()`);
  }
  return decision;
}

async function send(play: EpisodePlay, decided: AgentAction): Promise<FrameResponse> {
  const { env, spec, record } = play;
  const action = play.stepCalls.length === 0 ? decided : withReasoning(decided, reasoningWithUsage(decided.reasoning, play.stepCalls));
  play.stepCalls = [];
  const gameId = spec.game.game_id;
  const frame =
    action.id === 0 ? await env.transport.reset(env.cardId, gameId, record.guid!) : await env.transport.act(env.cardId, gameId, record.guid!, action);
  env.onAction?.();
  play.recording?.write(frame, actionInputOf(gameId, action));
  return frame;
}

/** The same action with another reasoning. */
function withReasoning(action: AgentAction, reasoning: unknown): AgentAction {
  if (action.id === 0) return Object.freeze({ id: 0 as const, reasoning });
  if (action.id === 6) return makeAction(6, action.x, action.y, reasoning);
  return makeAction(action.id, reasoning);
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** The record's counters, from the ledger: the service's own way of counting. */
function summarise(play: EpisodePlay, started: number): void {
  const { record } = play;
  record.runs = play.ledger.recordedRuns();
  record.actions = record.runs.reduce((sum, run) => sum + run.actions, 0);
  record.resets = record.runs.reduce((sum, run) => sum + run.resets, 0);
  record.levels_completed = record.runs.reduce((best, run) => Math.max(best, run.levels_completed), 0);
  record.score = episodeScore(record);
  record.wall_seconds = (Date.now() - started) / 1000;
}

async function finishAgent(play: EpisodePlay): Promise<void> {
  const { agent, record } = play;
  if (agent?.finish === undefined) return;
  try {
    await agent.finish({ outcome: record.outcome, actions: record.actions, levelsCompleted: record.levels_completed });
  } catch (error) {
    // A failing clean-up hook does not undo the episode's play; it is noted, not fatal.
    record.stop_details = { ...(record.stop_details as object), finish_error: (error as Error).message };
  }
}
