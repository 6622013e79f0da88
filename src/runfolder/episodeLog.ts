/**
 * episodes.jsonl: one line per finished episode. Lines wait at most WRITE_DELAY_MS (or until
 * BATCH_BYTES of them wait) and go to the file in one write: a write per episode cost ~9 µs in a
 * busy run, 2% of a fast in-process one. A run that ends, fails or is interrupted writes them all
 * (close); so does a process that exits on an uncaught error. Only a process killed outright (kill -9)
 * loses the episodes of its last WRITE_DELAY_MS, and a resume plays those again.
 *
 * The disk itself is synced at most once per SYNC_INTERVAL_MS and on close: an fsync per episode was an
 * eighth of a fast in-process run, and guards only against the machine going down.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { RunFolderWriteError } from '../errors.ts';
import type { EpisodeRecord } from './episodeRecord.ts';

const WRITE_DELAY_MS = 20;
const BATCH_BYTES = 64 * 1024;
const SYNC_INTERVAL_MS = 1000;

/** Logs with lines still waiting, written out if the process exits before they are. */
const waitingLogs = new Set<EpisodeLog>();
let exitHooked = false;

function writeWaitingOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const log of waitingLogs) {
      try {
        log.flush();
      } catch {
        // Its run was told (onFailure); a process that is exiting has nobody else to tell.
      }
    }
  });
}

export class EpisodeLog {
  private fd: number | undefined;
  private lastSync = Date.now();
  private waiting: string[] = [];
  private waitingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Told of a write that failed (a full disk), once: the run stops in order on it. */
  onFailure: ((error: RunFolderWriteError) => void) | undefined;
  private failed: RunFolderWriteError | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
    writeWaitingOnExit();
  }

  append(record: EpisodeRecord): void {
    if (this.fd === undefined) throw new Error(`episode log ${this.path} is already closed`);
    const line = `${JSON.stringify(record)}\n`;
    this.waiting.push(line);
    this.waitingBytes += line.length;
    if (this.waitingBytes >= BATCH_BYTES) this.flush();
    else if (this.timer === undefined) {
      waitingLogs.add(this);
      // Unref'd: a finished run's process need not wait for it (close writes what waits).
      // A failure here has no caller to throw to: onFailure hears of it, and close() throws it.
      this.timer = setTimeout(() => this.flushQuietly(), WRITE_DELAY_MS).unref();
    }
  }

  /** Writes every waiting line now (and syncs the disk if the last sync is SYNC_INTERVAL_MS old). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    waitingLogs.delete(this);
    if (this.failed !== undefined) throw this.failed;
    if (this.fd === undefined || this.waiting.length === 0) return;
    try {
      writeSync(this.fd, this.waiting.join(''));
      this.waiting = [];
      this.waitingBytes = 0;
      const now = Date.now();
      if (now - this.lastSync >= SYNC_INTERVAL_MS) {
        fsyncSync(this.fd);
        this.lastSync = now;
      }
    } catch (cause) {
      this.failed = new RunFolderWriteError(`cannot write ${this.path}: ${(cause as Error).message}`, { cause });
      this.onFailure?.(this.failed);
      throw this.failed;
    }
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // onFailure was told.
    }
  }

  /** Writes what waits and closes the file; throws a RunFolderWriteError when that (or an earlier write) failed. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    try {
      this.flush();
      fsyncSync(fd);
    } finally {
      this.fd = undefined;
      closeSync(fd);
    }
  }
}

/** Reads episodes.jsonl back (for tests, comparisons and resumption). */
export function parseEpisodeLog(text: string): EpisodeRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EpisodeRecord);
}
