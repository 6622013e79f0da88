/**
 * episodes.jsonl: one line per finished episode, written and flushed to disk the moment the episode
 * ends, so a run killed at any point keeps every episode that finished.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { EpisodeRecord } from './episode.ts';

export class EpisodeLog {
  private fd: number | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
  }

  append(record: EpisodeRecord): void {
    if (this.fd === undefined) throw new Error(`episode log ${this.path} is already closed`);
    writeSync(this.fd, JSON.stringify(record) + '\n');
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
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
