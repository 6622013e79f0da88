/**
 * The checkpoint policy of one playing episode, in one place (as inspect_ai's Checkpointer): when its
 * checkpoint file (runfolder/checkpointFile.ts, which says how a write is made safe) is written, with
 * what, and when it goes. The loop tells the keeper what happened (the session opened or was continued,
 * an action is about to go out, its answer is recorded) and never asks whether checkpoints are on: where
 * they are off, its keeper is NO_CHECKPOINTS, which does nothing.
 *
 * An episode whose session can be continued (the target outlives this process) and whose agent can be
 * (it has snapshot and restore) is checkpointed twice a step: before its action goes out, with the
 * action pending, and once the answer is recorded. Any other writes one small in-flight file, and only
 * once it has played IN_FLIGHT_AFTER_MS, so that a resume can tell why it starts over.
 */
import type { AgentAction } from '../agent/contract.ts';
import type { ModelCallRecord } from '../agent/usage.ts';
import type { FrameResponse } from '../protocol/index.ts';
import { CheckpointFile, type CheckpointState, type EpisodeCheckpoint } from '../runfolder/checkpointFile.ts';
import type { EpisodePlay } from './runEpisode.ts';

/** Where and how an episode's checkpoint is kept. */
export interface CheckpointSettings {
  readonly runDir: string;
  readonly attempt: number;
  /** The target's name, and why its sessions cannot outlive this process (undefined: they can). */
  readonly target: string;
  readonly notContinuable: string | undefined;
}

/** What the loop tells the keeper of an episode; each call may write its checkpoint. */
export interface CheckpointKeeper {
  /** The session's first frame is in and the agent made: the first checkpoint, or the in-flight note's timer. */
  opened(frame: FrameResponse): Promise<void> | undefined;
  /** A resume continues `checkpoint` at `step`, the agent restored from `snapshot`: its file goes on from there. */
  continued(checkpoint: EpisodeCheckpoint, step: number, frame: FrameResponse, snapshot: unknown): Promise<void> | undefined;
  /** Before each decision: the in-flight note, once it is due. */
  beforeStep(): void;
  /** The step's action is decided and about to go out. */
  sending(step: number, frame: FrameResponse, action: AgentAction): void;
  /** The action's answer is recorded; `step` is the next one to decide. */
  answered(step: number, frame: FrameResponse): Promise<void> | undefined;
  /** The agent reported model call number `index` of the episode: journaled until a checkpoint holds it. */
  called(index: number, call: ModelCallRecord): void;
  /** The episode's record is in episodes.jsonl (or its job complete): nothing will continue it, the file goes. */
  remove(): void;
}

/** The keeper where checkpoints are off. */
export const NO_CHECKPOINTS: CheckpointKeeper = Object.freeze({
  opened: () => undefined,
  continued: () => undefined,
  beforeStep: () => {},
  sending: () => {},
  answered: () => undefined,
  called: () => {},
  remove: () => {},
});

/** An episode that cannot be continued says it is in flight once it has played this long. */
const IN_FLIGHT_AFTER_MS = 1000;

/** The parts of a playing episode its checkpoint is made of. */
type KeptEpisode = Pick<EpisodePlay, 'spec' | 'env' | 'record' | 'ledger' | 'agent' | 'recording'>;

/** The keeper of `play`'s checkpoint: NO_CHECKPOINTS when `settings` is undefined. */
export function checkpointKeeper(settings: CheckpointSettings | undefined, play: KeptEpisode): CheckpointKeeper {
  return settings === undefined ? NO_CHECKPOINTS : new EpisodeCheckpointKeeper(settings, play);
}

class EpisodeCheckpointKeeper implements CheckpointKeeper {
  readonly #settings: CheckpointSettings;
  readonly #play: KeptEpisode;
  #file: CheckpointFile | undefined;
  /** Written after every step: the session and the agent can be continued. */
  #everyStep = false;
  /** When the in-flight note of an episode that cannot be continued is due. */
  #inFlightDue = Infinity;
  /** The agent's snapshot after its last decision, as JSON text. */
  #snapshot = 'null';

  constructor(settings: CheckpointSettings, play: KeptEpisode) {
    this.#settings = settings;
    this.#play = play;
  }

  opened(frame: FrameResponse): Promise<void> | undefined {
    const { spec, record, agent, env } = this.#play;
    if (record.guid === null) return undefined;
    const restorable = typeof agent?.snapshot === 'function' && typeof agent.restore === 'function';
    const notContinuable = this.#settings.notContinuable ?? (restorable ? undefined : `agent "${spec.agent.label}" has no snapshot() and restore()`);
    this.#file = new CheckpointFile(this.#settings.runDir, {
      agent: spec.agent.label,
      game_id: spec.game.game_id,
      episode: spec.index,
      seed: spec.seed,
      attempt: this.#settings.attempt,
      target: this.#settings.target,
      continuable: notContinuable === undefined,
      ...(notContinuable === undefined ? {} : { not_continuable: notContinuable }),
      card_id: env.cardId,
      guid: record.guid,
      recording: record.recording,
      started_at: record.started_at,
      win_levels: record.win_levels,
      baselines: record.baselines,
      baselines_known: record.baselines_known !== false,
    });
    if (notContinuable !== undefined) {
      this.#inFlightDue = Date.now() + IN_FLIGHT_AFTER_MS;
      return undefined;
    }
    this.#everyStep = true;
    this.#snapshot = JSON.stringify(agent!.snapshot!() ?? null);
    return this.answered(0, frame);
  }

  continued(checkpoint: EpisodeCheckpoint, step: number, frame: FrameResponse, snapshot: unknown): Promise<void> | undefined {
    this.#file = new CheckpointFile(this.#settings.runDir, { ...checkpoint, recording: this.#play.record.recording });
    this.#everyStep = true;
    this.#snapshot = JSON.stringify(snapshot ?? null);
    return this.answered(step, frame);
  }

  beforeStep(): void {
    if (this.#inFlightDue === Infinity || Date.now() < this.#inFlightDue) return;
    this.#inFlightDue = Infinity;
    this.#file!.writeInFlight();
  }

  /** The state so far, the action, and the agent's snapshot after deciding it. */
  sending(step: number, frame: FrameResponse, action: AgentAction): void {
    if (!this.#everyStep) return;
    const snapshot = JSON.stringify(this.#play.agent!.snapshot!() ?? null);
    this.#file!.write({ ...this.#state(step, frame), pending: { action: { ...action }, snapshot } });
    this.#snapshot = snapshot;
  }

  /** Written once the recording thread confirms the step's line is in the file. */
  answered(step: number, frame: FrameResponse): Promise<void> | undefined {
    if (!this.#everyStep) return undefined;
    const written = this.#play.recording?.whenOpen() ?? Promise.resolve();
    return written.then(() => this.#file!.write(this.#state(step, frame)));
  }

  called(index: number, call: ModelCallRecord): void {
    if (this.#everyStep) this.#file!.called(index, call);
  }

  remove(): void {
    this.#file?.remove();
  }

  #state(step: number, frame: FrameResponse): CheckpointState {
    const { ledger, record } = this.#play;
    return { step, frame, ledger: ledger.saved(), usage: record.usage, modelCalls: record.model_calls ?? [], snapshot: this.#snapshot };
  }
}
