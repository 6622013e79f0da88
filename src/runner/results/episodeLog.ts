/**
 * episodes.jsonl: one line per finished episode, written to the file the moment the episode ends, so a
 * run killed at any point keeps every episode that finished (the kernel holds what a killed process
 * wrote). The disk itself is synced at most once per SYNC_INTERVAL_MS and on close: an fsync per
 * episode was an eighth of a fast in-process run, and guards only against the machine going down.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { EpisodeRecord } from '../episode/runEpisode.ts';

const SYNC_INTERVAL_MS = 1000;

export class EpisodeLog {
  private fd: number | undefined;
  private lastSync = Date.now();

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
  }

  append(record: EpisodeRecord): void {
    if (this.fd === undefined) throw new Error(`episode log ${this.path} is already closed`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    const now = Date.now();
    if (now - this.lastSync >= SYNC_INTERVAL_MS) {
      fsyncSync(this.fd);
      this.lastSync = now;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Reads episodes.jsonl back (for tests, comparisons and resumption). */
export function parseEpisodeLog(text: string): EpisodeRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EpisodeRecord);
}
