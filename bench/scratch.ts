/**
 * The bench's temporary folders: all under one root per parent folder, removed when the bench process
 * ends, never between runs.
 *
 * Why not remove each run's folder after it: this VM's ext4 has no journal, and ext4 without one does
 * not reuse an inode for one to six minutes after its file is deleted. Every file made meanwhile in
 * that block group scans past each such inode (the kernel's `recently_deleted`: over half of `perf`'s
 * samples of a loop of file creates). Removing one run's 2,004 recordings made file creation in the
 * next runs cost 400–700 µs instead of 15–60 µs, so each run measured the clean-up of the one before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const roots = new Map<string, string>();

/** A new empty folder for one run or measurement, under `parent` (the system's temporary folder by default). */
export function scratchFolder(purpose: string, parent: string = tmpdir()): string {
  let root = roots.get(parent);
  if (root === undefined) {
    if (roots.size === 0) removeRootsWhenDone();
    root = mkdtempSync(join(parent, 'arcbench-bench-'));
    roots.set(parent, root);
  }
  return mkdtempSync(join(root, `${purpose}-`));
}

function removeRoots(): void {
  for (const root of roots.values()) rmSync(root, { recursive: true, force: true });
  roots.clear();
}

function removeRootsWhenDone(): void {
  process.once('exit', removeRoots);
  // Ctrl-C ends the process without 'exit' handlers unless the signal is handled.
  process.once('SIGINT', () => {
    removeRoots();
    process.exit(130);
  });
}
