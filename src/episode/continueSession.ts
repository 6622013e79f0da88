/**
 * A resume's continuation of an episode from its checkpoint (runfolder/checkpointFile.ts): the same card, the
 * same session, the agent restored, the recording kept and continued in the same file, usage carried
 * over once. Before anything is sent, the service's scorecard says whether the session is still there
 * and how many actions it counted: that, and the recording, settle whether an action decided before the
 * process died reached the service, so no action is sent twice and none is left out. When the session
 * cannot be continued the episode is played from a new RESET, as before checkpoints, and its record
 * says why (`restarted`).
 */
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Agent, AgentAction } from '../agent/contract.ts';
import { actionOfId } from '../agent/actions.ts';
import { UnrestorableStateError } from '../agent/unrestorable.ts';
import { addCall } from '../agent/usage.ts';
import { ApiError, decodeFrameResponse, type FrameResponse, type ScorecardAnswer } from '../protocol/index.ts';
import { type RecordingEntry, readRecording } from '../recording/recordingReader.ts';
import { RecordingWriter } from '../recording/recordingWriter.ts';
import type { EpisodeCheckpoint, PendingAction } from '../runfolder/checkpointFile.ts';
import { agentContext, type EpisodePlay } from './runEpisode.ts';
import { continueTranscript } from './episodeTranscript.ts';

/** Where play starts: a session's frame, the step to ask next, and maybe an action to send before asking. */
export interface SessionStart {
  readonly frame: FrameResponse;
  readonly step: number;
  /** Decided before the process died, never counted by the service: sent first. */
  readonly pending?: AgentAction;
}

/** The episode cannot go on on its session; the message says why, for its record. */
class NotContinued extends Error {}

/** The checkpoint's continuation, or (with the reason in the record) a new session from `open`. */
export async function continueOrOpen(play: EpisodePlay, open: (play: EpisodePlay) => Promise<SessionStart>): Promise<SessionStart> {
  const checkpoint = play.env.continueFrom;
  if (checkpoint === undefined) return open(play);
  try {
    return await continueSession(play, checkpoint);
  } catch (error) {
    if (!(error instanceof NotContinued)) throw error;
    play.record.restarted = { reason: error.message };
    play.ledger.restore({ runs: [] });
    return open(play);
  }
}

async function continueSession(play: EpisodePlay, checkpoint: EpisodeCheckpoint): Promise<SessionStart> {
  const counted = await countedOnService(play, checkpoint);
  play.ledger.restore(checkpoint.ledger);
  const entries = await recordedLines(play, checkpoint);
  const start = settlePending(play, checkpoint, counted, entries);
  if (!checkpoint.baselines_known || play.spec.game.baseline_actions !== undefined) play.game = play.spec.game;
  else play.game = { ...play.spec.game, baseline_actions: [...checkpoint.baselines] };
  await restoreAgent(play, start.snapshot);
  await continueRecording(play, checkpoint, entries.slice(0, start.step + 1));
  restoreRecord(play, checkpoint, start.step);
  await continueTranscript(play);
  await play.checkpoints.continued(checkpoint, start.step, start.frame, start.snapshot);
  return { frame: start.frame, step: start.step, ...(start.pending === undefined ? {} : { pending: start.pending }) };
}

/** What the service counted on the session: its counted actions and runs, from the card's scorecard. */
async function countedOnService(play: EpisodePlay, checkpoint: EpisodeCheckpoint): Promise<{ actions: number; runs: number }> {
  const { transport, cardId } = play.env;
  let card: ScorecardAnswer;
  try {
    card = await transport.getScorecard(cardId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new NotContinued(`the service no longer knows card ${cardId}: it was closed or expired`);
    throw new NotContinued(`the service's scorecard ${cardId} could not be read (${(error as Error).message})`);
  }
  if (card.published_at != null) throw new NotContinued(`the service closed card ${cardId} at ${card.published_at} (idle, or closed by hand)`);
  const runs = (card.environments ?? []).flatMap((e) => e.runs ?? []).filter((run) => run.guid === checkpoint.guid);
  if (runs.length === 0) throw new NotContinued(`card ${cardId} on the service has no session ${checkpoint.guid}`);
  return { actions: runs.reduce((sum, run) => sum + (run.actions ?? 0), 0), runs: runs.length };
}

/** The recording's whole lines; fewer than the checkpoint's means lines were lost, and the recording could not be whole. */
async function recordedLines(play: EpisodePlay, checkpoint: EpisodeCheckpoint): Promise<RecordingEntry[]> {
  const recordings = play.env.recordings;
  if (checkpoint.recording === null || recordings === undefined) return [];
  const entries: RecordingEntry[] = [];
  try {
    for await (const entry of readRecording(join(recordings.dir, basename(checkpoint.recording)))) entries.push(entry);
  } catch (error) {
    throw new NotContinued(`its recording ${checkpoint.recording} could not be read (${(error as Error).message})`);
  }
  if (entries.length < checkpoint.recording_lines) {
    throw new NotContinued(`its recording ${checkpoint.recording} holds ${entries.length} lines of the ${checkpoint.recording_lines} the checkpoint counts`);
  }
  return entries;
}

interface SettledStart extends SessionStart {
  /** The agent's state to restore. */
  readonly snapshot: unknown;
}

/**
 * Where the session is, given the checkpoint, the service's counts and the recording. An action that
 * was pending went out or not: the recording's next line shows it went out and what came back; else the
 * service's counts show whether it was counted (then its answer is lost, and the session cannot go on
 * with the agent's view of it) or not (then it is sent now, once).
 */
function settlePending(play: EpisodePlay, checkpoint: EpisodeCheckpoint, counted: { actions: number; runs: number }, entries: RecordingEntry[]): SettledStart {
  const { ledger } = play;
  const sameCounts = () => counted.actions === ledger.actions && counted.runs === ledger.recordedRuns().length;
  const frame = decodeFrameResponse(checkpoint.frame);
  const { pending } = checkpoint;
  if (pending === undefined) {
    if (!sameCounts()) throw countsDiffer(checkpoint, counted, ledger.actions);
    return { frame, step: checkpoint.step, snapshot: checkpoint.snapshot };
  }
  const next = entries[checkpoint.step + 1];
  if (next !== undefined && sameAction(next.data.action_input, pending.action)) {
    const answer = decodeFrameResponse(JSON.stringify(next.data));
    if (pending.action.id === 0) ledger.recordReset(answer);
    else ledger.recordAction(answer);
    if (!sameCounts()) throw countsDiffer(checkpoint, counted, ledger.actions);
    return { frame: answer, step: checkpoint.step + 1, snapshot: pending.snapshot };
  }
  if (!sameCounts()) {
    throw new NotContinued(
      `the action decided at step ${checkpoint.step} reached the service (it counts ${counted.actions} actions, the checkpoint ${ledger.actions}), but its answer was lost with the process before it was recorded`,
    );
  }
  return { frame, step: checkpoint.step, snapshot: pending.snapshot, pending: actionOf(pending) };
}

function countsDiffer(checkpoint: EpisodeCheckpoint, counted: { actions: number; runs: number }, ours: number): NotContinued {
  return new NotContinued(`the service counts ${counted.actions} actions on session ${checkpoint.guid}, its checkpoint ${ours}: they no longer agree`);
}

function sameAction(recorded: { id: number; data?: { x?: number; y?: number } }, pending: PendingAction['action']): boolean {
  return recorded.id === pending.id && (pending.id !== 6 || (recorded.data?.x === pending.x && recorded.data?.y === pending.y));
}

/** The pending action as it was decided; its id and cell were checked by the checkpoint's schema. */
function actionOf(pending: PendingAction): AgentAction {
  return actionOfId(pending.action, pending.action.reasoning);
}

/** The same file again, its lines so far written back first (a killed gzip stream cannot be appended to). */
async function continueRecording(play: EpisodePlay, checkpoint: EpisodeCheckpoint, kept: readonly RecordingEntry[]): Promise<void> {
  const recordings = play.env.recordings;
  if (recordings === undefined || checkpoint.recording === null) return;
  const fileName = basename(checkpoint.recording);
  rmSync(join(recordings.dir, fileName), { force: true });
  play.recording = new RecordingWriter(recordings.dir, fileName, recordings.format);
  for (const entry of kept) {
    const written = play.recording.write(decodeFrameResponse(JSON.stringify(entry.data)), entry.data.action_input as never, Date.parse(entry.timestamp));
    if (written !== undefined) await written;
  }
}

function restoreRecord(play: EpisodePlay, checkpoint: EpisodeCheckpoint, step: number): void {
  const { record } = play;
  record.guid = checkpoint.guid;
  record.win_levels = checkpoint.win_levels;
  record.baselines = [...checkpoint.baselines];
  record.baselines_known = checkpoint.baselines_known;
  record.usage = structuredClone(checkpoint.usage);
  if (checkpoint.model_calls.length > 0) record.model_calls = structuredClone([...checkpoint.model_calls]);
  // Billed to the killed attempt after its last checkpoint, then made again by the restored agent: both count.
  const unsettled = checkpoint.unsettled_calls ?? [];
  for (const call of unsettled) addCall(record.usage, call);
  if (unsettled.length > 0) record.model_calls = [...(record.model_calls ?? []), ...structuredClone(unsettled)];
  record.recording = checkpoint.recording;
  record.started_at = checkpoint.started_at;
  record.continued = { from_attempt: checkpoint.attempt, from_step: step, ...(unsettled.length > 0 ? { calls_made_again: unsettled.length } : {}) };
}

async function restoreAgent(play: EpisodePlay, snapshot: unknown): Promise<void> {
  const created = play.spec.agent.definition.create(agentContext(play));
  const agent = typeof (created as { then?: unknown }).then === 'function' ? await play.stop.race(created as Promise<Agent>, 'create()') : (created as Agent);
  if (agent.restore === undefined) throw new NotContinued(`agent "${play.spec.agent.label}" has no restore() any more`);
  try {
    const restored = agent.restore(snapshot);
    if (restored !== undefined) await play.stop.race(restored, 'restore()');
  } catch (error) {
    if (error instanceof UnrestorableStateError) throw new NotContinued(`agent "${play.spec.agent.label}": ${error.message}`);
    throw error;
  }
  play.agent = agent;
}
