/**
 * Recordings are encoded, compressed and written on a thread of their own: on the playing thread
 * they cost more than the in-process game itself (about 12 µs a line against 7 for a whole step). The
 * playing thread packs each line's text around the grids and the grids' cells into a batch
 * (recordingBatch.ts) and hands batches over, whole, at the next turn of the event loop or when one
 * fills; the recording thread (recordingThreadMain.ts) does the rest.
 *
 * One thread serves every recording of the process. It keeps the process alive only while a
 * recording is open or a batch is in flight. When it falls behind by MAX_IN_FLIGHT_BYTES, writes
 * wait for it, so memory stays flat however fast the games play. If it dies, every open recording
 * fails with the reason, and the next recording starts a new thread.
 */
import { RunFolderWriteError } from '../errors.ts';
import { Worker } from 'node:worker_threads';
import type { Grid } from '../protocol/index.ts';
import { BatchBuilder } from './recordingBatch.ts';
import type { RecordingFormat } from './recordingFiles.ts';
import type { RecordingThreadBatch, RecordingThreadReply } from './recordingThreadMain.ts';

/** A batch is handed over when it reaches this size, if the event loop has not turned before. */
const POST_BYTES = 256 * 1024;
/** About 1,000 lines of one grid (13 ms of the thread's work): past this, writes wait until it has caught up by half. */
const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

function waiter(): { promise: Promise<void>; waiter: Waiter } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, waiter: { resolve, reject } };
}

/** The module the worker starts from: the boot file loads the real entry, .ts from sources, .js when built. */
function startWorker(): Worker {
  const here = import.meta.url;
  const entry = new URL(here.endsWith('.ts') ? './recordingThreadMain.ts' : './recordingThreadMain.js', here).href;
  return new Worker(new URL('./recordingThreadBoot.js', here), { workerData: { entry } });
}

export class RecordingThread {
  readonly #worker = startWorker();
  readonly #batch = new BatchBuilder(POST_BYTES + 64 * 1024);
  #postScheduled = false;
  #inFlight = 0;
  #nextId = 1;
  /** Recordings opened and not yet closed by the thread. */
  #open = 0;
  readonly #failures = new Map<number, string>();
  readonly #syncs = new Map<number, Waiter[]>();
  readonly #closes = new Map<number, Waiter>();
  #drained: Waiter[] = [];
  #dead: Error | undefined;

  constructor() {
    this.#worker.unref();
    this.#worker.on('message', (reply: RecordingThreadReply) => this.#onReply(reply));
    this.#worker.on('error', (error) => this.#die(error));
    this.#worker.on('exit', (code) => this.#die(new Error(`the recording thread exited with code ${code}`)));
  }

  /** Opens a recording file (made on the thread); returns its id. */
  open(path: string, format: RecordingFormat): number {
    const id = this.#nextId++;
    this.#open++;
    this.#worker.ref();
    this.#batch.open(id, path, format);
    this.#schedulePost();
    return id;
  }

  /** Why the recording failed, once the thread has said so. */
  failure(id: number): string | undefined {
    return this.#dead === undefined ? this.#failures.get(id) : `the recording thread stopped: ${this.#dead.message}`;
  }

  /** Queues one line; a promise when the thread is behind, to wait on before the next. */
  line(id: number, head: string, grids: readonly Grid[], tail: string): Promise<void> | undefined {
    this.#batch.line(id, head, grids, tail);
    if (this.#batch.size >= POST_BYTES) this.#post();
    else this.#schedulePost();
    if (this.#inFlight < MAX_IN_FLIGHT_BYTES) return undefined;
    const { promise, waiter: drained } = waiter();
    this.#drained.push(drained);
    return promise;
  }

  /** Resolves once every line queued so far is in the file. */
  sync(id: number): Promise<void> {
    if (this.#dead !== undefined) return Promise.reject(new Error(this.failure(id)));
    const { promise, waiter: synced } = waiter();
    this.#syncs.set(id, [...(this.#syncs.get(id) ?? []), synced]);
    this.#batch.sync(id);
    this.#schedulePost();
    return promise;
  }

  /** Resolves once the file is complete and closed; rejects with why it could not be written. */
  close(id: number): Promise<void> {
    if (this.#dead !== undefined) return Promise.reject(new Error(this.failure(id)));
    const { promise, waiter: closed } = waiter();
    this.#closes.set(id, closed);
    this.#batch.close(id);
    this.#schedulePost();
    return promise;
  }

  #schedulePost(): void {
    if (this.#postScheduled) return;
    this.#postScheduled = true;
    setImmediate(() => this.#post());
  }

  #post(): void {
    this.#postScheduled = false;
    if (this.#batch.size === 0 || this.#dead !== undefined) return;
    const batch: RecordingThreadBatch = this.#batch.take();
    this.#inFlight += batch.length;
    this.#worker.ref();
    this.#worker.postMessage(batch, [batch.buffer]);
  }

  #onReply(reply: RecordingThreadReply): void {
    if (reply.kind === 'done') {
      this.#inFlight -= reply.bytes;
      this.#batch.recycle(reply.buffer);
      if (this.#inFlight <= MAX_IN_FLIGHT_BYTES / 2) for (const drained of this.#drained.splice(0)) drained.resolve();
    } else if (reply.kind === 'failed') {
      this.#failures.set(reply.id, reply.message);
    } else if (reply.kind === 'synced') {
      const waiting = this.#syncs.get(reply.id);
      waiting?.shift()?.resolve();
      if (waiting?.length === 0) this.#syncs.delete(reply.id);
    } else {
      this.#open--;
      this.#failures.delete(reply.id);
      const closed = this.#closes.get(reply.id);
      this.#closes.delete(reply.id);
      if (reply.error === undefined) closed?.resolve();
      else closed?.reject(new RunFolderWriteError(reply.error));
    }
    if (this.#open === 0 && this.#inFlight === 0) this.#worker.unref();
  }

  /** Everything waiting fails with the reason; the next recording starts a new thread. */
  #die(error: Error): void {
    if (this.#dead !== undefined) return;
    this.#dead = error;
    const failed = new Error(`the recording thread stopped: ${error.message}`);
    for (const waiting of [...this.#drained, ...[...this.#syncs.values()].flat(), ...this.#closes.values()]) waiting.reject(failed);
    this.#drained = [];
    this.#syncs.clear();
    this.#closes.clear();
    if (current === this) current = undefined;
    void this.#worker.terminate();
  }
}

let current: RecordingThread | undefined;

/** The process's recording thread, started on first use. */
export function recordingThread(): RecordingThread {
  current ??= new RecordingThread();
  return current;
}
