/**
 * One episode: a new session (RESET with the agent's card), then the agent acts until the game is won,
 * a budget runs out, the agent stops, the run is interrupted, or something fails. Whatever happens, the
 * episode comes back as a record; only the scheduler decides what a failure means for the run.
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { actionOfId, AgentContractError, checkedAction, isStop } from '../agent/actions.ts';
import { DollarBudgetSpent } from '../agent/gateway/dollarBudgetSpent.ts';
import type { Agent, AgentAction, AgentContext, AgentDecision, EpisodeOutcome } from '../agent/contract.ts';
import { createRng } from '../agent/rng.ts';
import { addCall, callRecord, type ModelCallRecord, reasoningWithUsage } from '../agent/usage.ts';
import { actAtOnce, answersAtOnce } from '../client/inProcessTransport.ts';
import { AnswerOutOfStepError, type Transport, TransportError } from '../client/transport.ts';
import type { FrameResponse, GameDescriptor } from '../protocol/index.ts';
import { actionInputOf } from '../protocol/index.ts';
import { redactSecretFields } from '../redaction.ts';
import type { ResolvedAgent } from '../agent/defineAgent.ts';
import { type RecordingFormat, RecordingWriter, recordingFileName } from '../recording/recordingWriter.ts';
import type { DecisionWatch } from './decisionWatch.ts';
import { type Budgets, episodeSeconds, firstActionSeconds, levelBudgetWithoutBaselines, spentBudget, timeSpentSentence } from './budgets.ts';
import { describeError } from './episodeError.ts';
import { episodeScore, knewBaselines } from '../analysis/localScoring.ts';
import { type EpisodeRecord, startedRecord } from '../runfolder/episodeRecord.ts';
import { EpisodeCut, EpisodeStop } from './episodeStop.ts';
import { BaselinesUnknownError, type GameBaselines } from './gameBaselines.ts';
import { RunLedger } from './runLedger.ts';
import { noteLevelTimes } from './levelTimes.ts';
import { recordingPath } from '../runfolder/layout.ts';
import type { EpisodeCheckpoint } from '../runfolder/checkpointFile.ts';
import { type CheckpointKeeper, type CheckpointSettings, checkpointKeeper, NO_CHECKPOINTS } from './checkpointKeeper.ts';
import { continueOrOpen, type SessionStart } from './continueSession.ts';
import { closeTranscript, type EpisodeTranscript, type EpisodeTranscripts, keepTranscript } from './episodeTranscript.ts';

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
  /** The run's book of level baselines, for games whose descriptor has none. */
  readonly baselines: GameBaselines;
  /** The card is a competition card: every RESET of a session is a level reset (docs/protocol.md §5). */
  readonly competition: boolean;
  /** Where transcripts of model calls go, and the run's secrets to keep out of them; undefined when off. */
  readonly transcripts?: EpisodeTranscripts | undefined;
  /** Called after every answer of the service, for progress. */
  readonly onAction?: () => void;
  /** Called for every model call the agent reports, for the run's dollar budget. */
  readonly onUsage?: (call: ModelCallRecord) => void;
  /** Where a decision under way is shown to the run's heartbeat (decisionWatch.ts). */
  readonly decisions?: DecisionWatch;
  /** Where an agent process's own output goes live (`run --agent-output`), besides run.log. */
  readonly agentOutput?: (line: string) => void;
  /** The run's log, for what agents write there (context.log). */
  readonly logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** Where and how the episode's checkpoint is kept (checkpointKeeper.ts); undefined: none. */
  readonly checkpoints?: CheckpointSettings;
  /** A resume's: the checkpoint to continue the episode from, or why it is played again from a new RESET. */
  readonly continueFrom?: EpisodeCheckpoint;
  readonly restartReason?: string;
}

/** What the steps of one episode share. */
export interface EpisodePlay {
  readonly spec: EpisodeSpec;
  readonly env: EpisodeEnvironment;
  readonly record: EpisodeRecord;
  readonly ledger: RunLedger;
  readonly deadline: number;
  /** The agent's signal: the run's stop and the episode's deadline. */
  readonly stop: EpisodeStop;
  /** The game as the agent sees it: its descriptor, with the baselines once they are known. */
  game: GameDescriptor;
  recording: RecordingWriter | undefined;
  transcript: EpisodeTranscript | undefined;
  agent: Agent | undefined;
  /** The step being decided, and the model calls reported in it (they go out with its action). */
  step: number;
  stepCalls: ModelCallRecord[];
  /** Set once the record is final: usage reported later (an abandoned call) has nowhere to go. */
  done: boolean;
  /** Told of each step; it alone decides what is checkpointed (NO_CHECKPOINTS where checkpoints are off). Set once, at the start. */
  checkpoints: CheckpointKeeper;
}

export async function runEpisode(spec: EpisodeSpec, env: EpisodeEnvironment): Promise<EpisodeRecord> {
  return (await playEpisode(spec, env)).finished;
}

/**
 * Plays the episode; resolves once play is over, with `finished`: the record, once its recording is
 * complete on disk (a recording that cannot be written fails its episode). Meanwhile the scheduler
 * gives the episode's place to the next one: the recording thread may be thousands of lines behind,
 * and waiting for it with every place of the run held left both threads idle a third of the time.
 */
export async function playEpisode(
  spec: EpisodeSpec,
  env: EpisodeEnvironment,
): Promise<{ readonly finished: Promise<EpisodeRecord>; readonly checkpoints: CheckpointKeeper }> {
  const started = Date.now();
  const deadline = started + episodeSeconds(env.budgets) * 1000;
  const firstActionBy = env.continueFrom !== undefined ? Infinity : started + firstActionSeconds(env.budgets) * 1000;
  const play: EpisodePlay = {
    spec,
    env,
    record: startedRecord(spec.agent.label, spec.game, spec.index, spec.seed, env.cardId, started),
    ledger: new RunLedger(env.nextRunSequence, !env.competition),
    deadline,
    stop: new EpisodeStop(env.signal, env.abortOutcome, Math.min(deadline, firstActionBy)),
    game: spec.game,
    recording: undefined,
    transcript: undefined,
    agent: undefined,
    step: 0,
    stepCalls: [],
    done: false,
    checkpoints: NO_CHECKPOINTS,
  };
  play.checkpoints = checkpointKeeper(env.checkpoints, play);
  if (env.restartReason !== undefined) play.record.restarted = { reason: env.restartReason };
  try {
    if (env.signal.aborted) play.record.outcome = env.abortOutcome();
    else play.record.final_state = (await playUntilEnd(play, await continueOrOpen(play, openSession))).state;
  } catch (error) {
    endOnError(play, error);
  } finally {
    play.stop.dispose();
    summarise(play, started);
    await finishAgent(play);
    play.done = true;
  }
  return {
    finished: closeRecording(play)
      .then(() => closeTranscript(play))
      .then(() => play.record),
    checkpoints: play.checkpoints,
  };
}

/**
 * How an episode that threw ends: an agent call cut by the deadline or the stop ends it as the stop
 * says, with which call it was; so does a request the stop cut short; anything else is an error.
 */
function endOnError(play: EpisodePlay, error: unknown): void {
  const { record, stop } = play;
  if (error instanceof EpisodeCut) {
    record.outcome = stop.outcome;
    record.stop_reason = `agent "${play.spec.agent.label}": ${error.call} had not settled when ${stopCause(play)}`;
  } else if (error instanceof DollarBudgetSpent) {
    record.outcome = 'cost';
    record.stop_reason = error.message;
  } else if (error instanceof TransportError && error.kind === 'interrupted' && stop.aborted) {
    record.outcome = stop.outcome;
    record.stop_reason = error.message;
  } else {
    record.outcome = 'error';
    record.error = describeError(error);
  }
}

function stopCause(play: EpisodePlay): string {
  const outcome = play.stop.outcome;
  const { budgets } = play.env;
  const firstActionMissed = Date.now() >= Date.parse(play.record.started_at) + firstActionSeconds(budgets) * 1000;
  if (outcome === 'time' && play.ledger.actions === 0 && play.step === 0 && firstActionMissed && Date.now() < play.deadline) {
    return timeSpentSentence('first_action_seconds', budgets);
  }
  if (outcome === 'time') return timeSpentSentence(Date.now() >= play.deadline ? 'episode_seconds' : 'run_seconds', budgets);
  if (outcome === 'cancelled') return 'the run was interrupted';
  return `the run stopped (${outcome})`;
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
async function openSession(play: EpisodePlay): Promise<SessionStart> {
  const { spec, env, record } = play;
  const frame = await env.transport.reset(env.cardId, spec.game.game_id);
  env.onAction?.();
  record.guid = frame.guid;
  record.win_levels = frame.win_levels;
  play.ledger.recordReset(frame);
  await learnBaselines(play, frame);
  if (env.recordings !== undefined) {
    const fileName = recordingFileName(spec.game.game_id, spec.agent.label, spec.index, frame.guid, env.recordings.format);
    play.recording = new RecordingWriter(env.recordings.dir, fileName, env.recordings.format);
    record.recording = recordingPath(fileName);
    await play.recording.write(frame, { id: 0, data: {} });
  }
  // Raced against the stop like every decision: an agent that loads a model may outlive the deadline.
  const created = spec.agent.definition.create(agentContext(play));
  play.agent = isThenable(created) ? await play.stop.race(created, 'create()') : created;
  await play.checkpoints.opened(frame);
  return { frame, step: 0 };
}

/**
 * The game's baselines, when the game list had none: from the scorecard (gameBaselines.ts). Per-level
 * budgets cannot be kept without them: such an episode ends with an error that says so, rather than
 * play on without its budget.
 */
async function learnBaselines(play: EpisodePlay, frame: FrameResponse): Promise<void> {
  const { spec, env, record } = play;
  if (spec.game.baseline_actions !== undefined) return;
  const baselines = await env.baselines.of(spec.game, env.cardId, frame);
  if (baselines !== undefined) {
    record.baselines = [...baselines];
    record.baselines_known = true;
    play.game = { ...spec.game, baseline_actions: [...baselines] };
    return;
  }
  if (env.budgets.max_actions_per_level !== undefined) {
    throw new BaselinesUnknownError(levelBudgetWithoutBaselines(spec.game.game_id));
  }
}

export function agentContext(play: EpisodePlay): AgentContext<unknown> {
  const { spec, env } = play;
  return {
    params: spec.agent.params,
    game: play.game,
    rng: createRng(spec.seed),
    seed: spec.seed,
    episode: spec.index,
    label: spec.agent.label,
    // Made on first read: most agents never look (episodeStop.ts).
    get signal() {
      return play.stop.signal;
    },
    resolvePath: (path) => resolve(env.baseDir, path),
    reportUsage: (call) => recordUsage(play, call),
    cardId: env.cardId,
    budgets: env.budgets,
    log: (level, message, fields) => {
      env.logger?.[level]({ ...fields, game: spec.game.game_id, episode: spec.index }, message);
      // A line the agent's process printed, shown live when asked, prefixed with its episode.
      if (env.agentOutput !== undefined && fields?.stream !== undefined) env.agentOutput(`${spec.agent.label} ${spec.game.game_id}#${spec.index}: ${message}`);
    },
    keepTranscript: (call) => keepTranscript(play, call),
    keepsTranscripts: env.transcripts !== undefined,
  };
}

/** One reported model call, kept in the episode's totals, its list of calls, and the step's action. */
function recordUsage(play: EpisodePlay, call: Parameters<AgentContext<unknown>['reportUsage']>[0]): void {
  if (play.done) return;
  const checked = callRecord(call, play.step);
  addCall(play.record.usage, checked);
  play.record.model_calls ??= [];
  play.record.model_calls.push(checked);
  play.checkpoints.called(play.record.model_calls.length - 1, checked);
  play.stepCalls.push(checked);
  play.env.onUsage?.(checked);
}

async function playUntilEnd(play: EpisodePlay, start: SessionStart): Promise<FrameResponse> {
  const { record, ledger } = play;
  let frame = start.frame;
  // A continued episode whose last action was decided but never reached the service sends it first.
  let resend = start.pending;
  for (let step = start.step; ; step++) {
    // The in-process service answers in microtasks only; without a turn of the event loop now and
    // then, signals (SIGINT), timers (run wall time) and progress would wait for the whole run.
    if (step % 16 === 15) await yieldToEventLoop();
    play.checkpoints.beforeStep();
    play.step = step;
    const ended = endBeforeStep(play, frame);
    if (ended !== undefined) {
      record.outcome = ended;
      return frame;
    }
    // Awaited only when it is a promise: most agents decide synchronously, and an await of a plain
    // value (or a call of an async function) costs a trip through the microtask queue on every action.
    const next = resend ?? decide(play, frame, step);
    const decision = isThenable(next) ? await next : next;
    if (isStop(decision)) {
      record.outcome = 'agent_stop';
      if (decision.reason !== undefined) record.stop_reason = decision.reason;
      // Free-form, from the agent: a field named like a key must not reach the results.
      if (decision.details !== undefined) record.stop_details = redactSecretFields(decision.details);
      return frame;
    }
    const action = checkedAction(decision, play.spec.agent.label);
    if (action.id !== 0 && frame.state === 'GAME_OVER') {
      throw new AgentContractError(`agent "${play.spec.agent.label}" sent a game action after GAME_OVER; return reset() or stop() once the game is over`);
    }
    const sent = resend ?? withStepUsage(play, action);
    play.checkpoints.sending(step, frame, sent);
    if (resend !== undefined) resend = undefined;
    else if (step === start.step && start.step === 0) play.stop.moveDeadline(play.deadline);
    try {
      const answer = send(play, sent);
      frame = isThenable(answer) ? await answer : answer;
    } catch (error) {
      if (error instanceof AnswerOutOfStepError) ledger.recordLostAnswer(action.id, record.guid!);
      throw error;
    }
    const recorded = answered(play, sent, frame);
    if (recorded !== undefined) await recorded;
    // A RESET answered with another action's echo was not played (the toolkit's competition mode, on a
    // level not begun: client/http/answerCheck.ts); the toolkit counts it as an action on the level, no reset.
    if (action.id === 0 && frame.action_input.id === 0) ledger.recordReset(frame);
    else ledger.recordAction(frame);
    noteLevelTimes(record, frame.levels_completed);
    const kept = play.checkpoints.answered(step + 1, frame);
    if (kept !== undefined) await kept;
  }
}

/** Why the episode ends before the agent's next decision, if it does. */
function endBeforeStep(play: EpisodePlay, frame: FrameResponse): EpisodeOutcome | undefined {
  if (frame.state === 'WIN') return 'win';
  if (play.stop.aborted) return play.stop.outcome;
  // The episode's own deadline is the stop's (`aborted` above, outcome `time`).
  return spentBudget(play.env.budgets, play.ledger, play.record.baselines, play.record.usage);
}

/** The agent's decision: at once for a synchronous agent, raced against the stop for an async one. */
function decide(play: EpisodePlay, frame: FrameResponse, step: number): AgentDecision | Promise<AgentDecision> {
  const { ledger } = play;
  const answer = play.agent!.act(frame, { step, actions: ledger.actions, levelActions: ledger.levelActions });
  if (!isThenable(answer)) return checkedDecision(play, answer);
  const watched = play.env.decisions?.started({ agent: play.spec.agent.label, gameId: play.spec.game.game_id, episode: play.spec.index, step });
  return play.stop
    .race(answer, 'act()')
    .finally(() => watched && play.env.decisions!.ended(watched))
    .then((decision) => checkedDecision(play, decision));
}

function checkedDecision(play: EpisodePlay, decision: AgentDecision): AgentDecision {
  if (decision === null || typeof decision !== 'object') {
    throw new AgentContractError(`agent "${play.spec.agent.label}" returned ${String(decision)}; return an action, reset() or stop()`);
  }
  return decision;
}

/** The action as sent: with the step's model usage in its reasoning when the agent reported any. */
function withStepUsage(play: EpisodePlay, decided: AgentAction): AgentAction {
  if (play.stepCalls.length === 0) return decided;
  const action = withReasoning(decided, reasoningWithUsage(decided.reasoning, play.stepCalls));
  play.stepCalls = [];
  return action;
}

/**
 * The answer at once from a transport that has it (in-process, actAtOnce), else the transport's promise
 * itself, not an async wrapper's: no promise, or one less, on every action.
 */
function send(play: EpisodePlay, action: AgentAction): FrameResponse | Promise<FrameResponse> {
  const { env, spec, record } = play;
  const { transport } = env;
  const gameId = spec.game.game_id;
  if (action.id === 0) return transport.reset(env.cardId, gameId, record.guid!);
  return answersAtOnce(transport) ? transport[actAtOnce](env.cardId, gameId, record.guid!, action) : transport.act(env.cardId, gameId, record.guid!, action);
}

/** Counts the answer and records it; a promise when the recording thread is behind (recordingThread.ts). */
function answered(play: EpisodePlay, action: AgentAction, frame: FrameResponse): Promise<void> | undefined {
  play.env.onAction?.();
  return play.recording?.write(frame, actionInputOf(play.spec.game.game_id, action));
}

/** The same action with another reasoning. */
function withReasoning(action: AgentAction, reasoning: unknown): AgentAction {
  return actionOfId(action, reasoning);
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
  if (play.ledger.answersLost > 0) record.answers_lost = play.ledger.answersLost;
  record.score = knewBaselines(record) ? episodeScore(record) : null;
  record.wall_seconds = (Date.now() - started) / 1000;
}

/** Time `finish` gets to clean up once the episode is over: it too must not wedge the run. */
const FINISH_GRACE_MS = 1000;

async function finishAgent(play: EpisodePlay): Promise<void> {
  const { agent, record } = play;
  if (agent?.finish === undefined) return;
  try {
    const done = agent.finish({ outcome: record.outcome, actions: record.actions, levelsCompleted: record.levels_completed });
    if (isThenable(done)) await withinGrace(done, `agent "${play.spec.agent.label}": finish() had not settled ${FINISH_GRACE_MS} ms after its episode ended`);
  } catch (error) {
    // A failing clean-up hook does not undo the episode's play; it is noted, not fatal.
    record.stop_details = { ...(record.stop_details as object), finish_error: (error as Error).message };
  }
}

/** The promise, or an Error saying `late` if it has not settled within FINISH_GRACE_MS. */
function withinGrace<T>(promise: PromiseLike<T>, late: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(late)), FINISH_GRACE_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
