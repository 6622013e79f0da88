/**
 * An episode's checkpoint: what `arcbench resume` needs to continue the episode on its own session
 * after its process died (resume/continuations.ts reads it, continueSession.ts continues from it). It
 * lives in the run folder's checkpoints/ while the episode plays, and goes once the episode's record is
 * in episodes.jsonl.
 *
 * Written in place, twice a step, in this order. A temp file and a rename cost 190 µs a write on this
 * VM's disk, against 10 µs for a write over the file; with them, loopback HTTP runs made 1,342
 * actions/s, and 4,392 with writes in place (10,736 with none; `npm run bench -- http`, 2026-11-26):
 * 1. once the agent has decided, before the action goes out: the state so far plus `pending` (the
 *    action, the agent's snapshot after deciding it). Killed from here on, a resume cannot tell from
 *    the checkpoint alone whether the service got the action: it looks in the recording, then asks
 *    the service's scorecard, and sends the action only if the service never counted it.
 * 2. once the answer is recorded and the recording thread has confirmed the line is in the file:
 *    the new state, without `pending`. The recording then holds `step + 1` lines (the RESET's, then
 *    one per action), so a resume keeps exactly those and the recording goes on whole.
 *
 * A kill can cut a write short (the kernel stops at a page boundary), leaving the start of the new text
 * over the rest of the old. Each write's text opens and closes with the write's number (`seal`,
 * `seal_end`): a file whose two differ, or that does not parse, is skipped by a resume, whose episode
 * then starts over. A shorter text is padded with spaces to the file's length, so nothing of a longer
 * one before it is left after it.
 *
 * Targets whose sessions die with the process (in-process, a server the run started) get no
 * checkpoint per step: nothing can continue those sessions. An episode of theirs that has played for a
 * second gets one small file saying it is in flight, so that a resume can tell why it starts over;
 * shorter ones write nothing (a file per episode was 11–21% of an in-process step: `npm run bench --
 * checkpoints`, where the per-step cost is measured too).
 */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelCallRecord, UsageTotals } from '../agent/usage.ts';
import { encodeFrameResponse, type FrameResponse, isGameId } from '../protocol/index.ts';
import { CallJournal } from './callJournal.ts';
import { CHECKPOINT_FORMAT, readCheckpointText } from './checkpointReading.ts';
import { CHECKPOINTS_FOLDER, checkpointFileName } from './fileNames.ts';
import type { RecordedRun } from './episodeRecord.ts';

/** The ledger as JSON, for an episode's checkpoint: its runs with their level counters. */
export interface SavedLedger {
  readonly runs: readonly (RecordedRun & { readonly actions_on_level: number })[];
}

export { CHECKPOINT_FORMAT };

/** What does not change while the episode plays. */
export interface CheckpointHead {
  readonly format: typeof CHECKPOINT_FORMAT;
  readonly agent: string;
  readonly game_id: string;
  readonly episode: number;
  readonly seed: number;
  /** The attempt of the run that plays it. */
  readonly attempt: number;
  /** The target as the transport names it (a URL), and whether its sessions outlive this process. */
  readonly target: string;
  readonly continuable: boolean;
  /** Why the episode cannot be continued, when it cannot (a resume records it). */
  readonly not_continuable?: string;
  readonly card_id: string;
  readonly guid: string;
  /** The recording, relative to the run folder (null when recordings are off). */
  readonly recording: string | null;
  readonly started_at: string;
  readonly win_levels: number;
  readonly baselines: readonly number[];
  readonly baselines_known: boolean;
}

/** An action as a checkpoint keeps it: the id, the cell of a click, the reasoning sent with it. */
export interface SavedAction {
  readonly id: number;
  readonly x?: number;
  readonly y?: number;
  readonly reasoning?: unknown;
}

/** The action decided and maybe sent when the checkpoint was written. */
export interface PendingAction {
  readonly action: SavedAction;
  /** The agent's snapshot after deciding it. */
  readonly snapshot: unknown;
}

/** The checkpoint of an episode whose session can be continued: its state after a step. */
export interface EpisodeCheckpoint extends CheckpointHead {
  readonly continuable: true;
  /** Actions sent and answered (and recorded): the next decision asked is step `step`. */
  readonly step: number;
  /** The last answer, as the service sent it (JSON text). */
  readonly frame: string;
  readonly ledger: SavedLedger;
  readonly usage: UsageTotals;
  readonly model_calls: readonly ModelCallRecord[];
  /** The agent's snapshot after the decision whose answer is `frame`; null for an agent without one. */
  readonly snapshot: unknown;
  /** Lines the recording is known to hold: `step + 1`. */
  readonly recording_lines: number;
  readonly pending?: PendingAction;
  /**
   * Read back only (callJournal.ts): calls the killed attempt made after this checkpoint's write, which
   * the provider billed and `model_calls` does not hold.
   */
  readonly unsettled_calls?: readonly ModelCallRecord[];
  readonly written_at: string;
  /** The write's number, at the text's start and at its end: they differ in a write cut short. */
  readonly seal?: number;
  readonly seal_end?: number;
}

/**
 * The head alone of what a file is made from: a resume makes the file of a continued episode from the
 * checkpoint it continues, whose state (a pending action, the seals, …) must not carry into new writes.
 */
function headOf(from: Omit<CheckpointHead, 'format'> | EpisodeCheckpoint): Omit<CheckpointHead, 'format'> {
  const {
    step: _step,
    frame: _frame,
    ledger: _ledger,
    usage: _usage,
    model_calls: _modelCalls,
    snapshot: _snapshot,
    recording_lines: _recordingLines,
    pending: _pending,
    unsettled_calls: _unsettledCalls,
    written_at: _writtenAt,
    seal: _seal,
    seal_end: _sealEnd,
    format: _format,
    ...head
  } = from as Partial<EpisodeCheckpoint> & Omit<CheckpointHead, 'format'>;
  return head;
}

/** The state of the episode a checkpoint is written from. */
export interface CheckpointState {
  readonly step: number;
  readonly frame: FrameResponse;
  readonly ledger: SavedLedger;
  readonly usage: UsageTotals;
  readonly modelCalls: readonly ModelCallRecord[];
  /** The agent's snapshot as JSON text (serialised once, written in two checkpoints); 'null' for none. */
  readonly snapshot: string;
  readonly pending?: { readonly action: PendingAction['action']; readonly snapshot: string };
}

/**
 * The one checkpoint of an episode that cannot be continued (CheckpointFile.writeInFlight): its head
 * and when it was written, nothing to continue from.
 */
export interface InFlightCheckpoint extends CheckpointHead {
  readonly continuable: false;
  readonly step: number;
  readonly written_at: string;
  readonly pending?: undefined;
}

/** A checkpoint file as a resume reads it. */
export type StoredCheckpoint = EpisodeCheckpoint | InFlightCheckpoint;

/** A checkpoint file's text as a resume reads it; undefined when it is unreadable (checkpointReading.ts says when). */
export function parseCheckpoint(text: string): StoredCheckpoint | undefined {
  const reading = readCheckpointText(text);
  return 'checkpoint' in reading ? reading.checkpoint : undefined;
}

/** One episode's checkpoint file. */
export class CheckpointFile {
  readonly path: string;
  readonly #head: CheckpointHead;
  /** The last answer's text, encoded once per answer (a `pending` write reuses it). */
  #frame: { response: FrameResponse; text: string } | undefined;
  /** The writes so far: the number each write's text opens and closes with. */
  #writes = 0;
  /** The file's length in bytes (0 until the first write): a shorter text is padded to it. */
  #length = 0;
  readonly #journal: CallJournal;

  constructor(runDir: string, head: Omit<CheckpointHead, 'format'> | EpisodeCheckpoint) {
    if (!isGameId(head.game_id)) throw new Error(`checkpoint: ${JSON.stringify(head.game_id)} is not a game id`);
    this.path = join(runDir, CHECKPOINTS_FOLDER, checkpointFileName(head.game_id, head.agent, head.episode));
    this.#head = { format: CHECKPOINT_FORMAT, ...headOf(head) };
    this.#journal = new CallJournal(this.path);
  }

  /** A model call of the episode, call number `index`, journaled at once (callJournal.ts says why). */
  called(index: number, call: ModelCallRecord): void {
    if (this.#length === 0) mkdirSync(dirname(this.path), { recursive: true });
    this.#journal.append(index, call);
  }

  /** Replaces the file's text; a write cut short by a kill is seen as such (the seals differ). */
  write(state: CheckpointState): void {
    const seal = ++this.#writes;
    const fields = {
      seal,
      ...this.#head,
      step: state.step,
      frame: this.#frameText(state.frame),
      ledger: state.ledger,
      usage: state.usage,
      model_calls: state.modelCalls,
      recording_lines: state.step + 1,
      written_at: new Date().toISOString(),
    };
    // The snapshots go in as the text they were serialised to once: an agent's memory can be large.
    const pending = state.pending === undefined ? '' : `,"pending":{"action":${JSON.stringify(state.pending.action)},"snapshot":${state.pending.snapshot}}`;
    this.#replace(`${JSON.stringify(fields).slice(0, -1)},"snapshot":${state.snapshot}${pending},"seal_end":${seal}}`);
  }

  /**
   * The one checkpoint of an episode that cannot be continued: what it is and why not, for the
   * resume's record (no frame, no state: nothing continues from it).
   */
  writeInFlight(): void {
    const seal = ++this.#writes;
    this.#replace(JSON.stringify({ seal, ...this.#head, step: 0, written_at: new Date().toISOString(), seal_end: seal }));
  }

  #replace(text: string): void {
    const encoded = Buffer.from(text, 'utf8');
    const bytes = encoded.length >= this.#length ? encoded : Buffer.concat([encoded, Buffer.alloc(this.#length - encoded.length, ' ')]);
    if (this.#length === 0 || !this.#overwrite(bytes)) this.#create(bytes);
    this.#length = bytes.length;
  }

  /** The first write makes the file, and its folder when a run has none yet. */
  #create(bytes: Buffer): void {
    try {
      writeFileSync(this.path, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(this.path), { recursive: true });
      writeFileSync(this.path, bytes);
    }
  }

  /** Writes over the file from its start; false when the file is gone (then it is made again). */
  #overwrite(bytes: Buffer): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, done);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  remove(): void {
    this.#journal.remove();
    if (this.#length > 0) rmSync(this.path, { force: true });
  }

  #frameText(frame: FrameResponse): string {
    if (this.#frame?.response !== frame) this.#frame = { response: frame, text: encodeFrameResponse(frame).toString('utf8') };
    return this.#frame.text;
  }
}
