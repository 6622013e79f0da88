/**
 * The run folder: `--out <dir>`, or `<output>/<timestamp>-<name>/`, with its recordings/ subfolder.
 * A folder is one run's state, so a new run never writes into a used one: it is refused, or with
 * `force` moved aside (renamed, never deleted).
 */
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeFolder } from './makeFolder.ts';
import { RunFolderError } from './runReport.ts';
import { RECORDINGS_FOLDER } from './fileNames.ts';

/** 2025-01-31T12-05-09Z: sortable, and legal in file names everywhere. */
function runTimestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

/** A free name beside `base`: base, base-2, base-3, … */
function freeName(base: string): string {
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  return dir;
}

function contents(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') {
      // The folder itself, or one above it (`--out /dev/null/x`), is a file.
      const why = existsSync(dir)
        ? `${dir} is a file, not a folder; --out names the run's folder`
        : `cannot create the results folder ${dir}: a folder above it is a file; choose another --out`;
      throw new RunFolderError(why, 'RUN_FOLDER_IN_USE');
    }
    throw error;
  }
}

/** Refuses a used `--out`, or moves it aside with `force`; returns where it went. */
function claimOut(dir: string, at: Date, force: boolean): string | undefined {
  const inside = contents(dir);
  if (inside.length === 0) return undefined;
  const aside = freeName(`${dir}.moved-${runTimestamp(at)}`);
  if (!force) {
    const listed = inside.slice(0, 3).join(', ') + (inside.length > 3 ? ', …' : '');
    throw new RunFolderError(
      `${dir} is not empty (${listed}): a run folder holds one run. Continue that run with \`arcbench resume ${dir}\`, ` +
        `choose another --out, or pass --force to move it aside (to ${aside}); nothing is deleted`,
      'RUN_FOLDER_IN_USE',
    );
  }
  renameSync(dir, aside);
  return aside;
}

export function createRunDirectory(options: { out?: string; output: string; name: string; at: Date; recordings: boolean; force?: boolean }): {
  dir: string;
  /** Where a used `--out` was moved with `force`. */
  movedAside: string | undefined;
} {
  let dir: string;
  let movedAside: string | undefined;
  if (options.out !== undefined) {
    dir = resolve(options.out);
    movedAside = claimOut(dir, options.at, options.force ?? false);
  } else {
    // Two runs started in the same second must not share a folder.
    dir = freeName(resolve(options.output, `${runTimestamp(options.at)}-${options.name}`));
  }
  try {
    makeFolder(dir);
    if (options.recordings) makeFolder(join(dir, RECORDINGS_FOLDER));
  } catch (error) {
    // A parent that is a file, a folder we may not write: a sentence and exit 2, not a stack trace.
    const { code, message } = error as NodeJS.ErrnoException;
    throw new RunFolderError(`cannot create the results folder ${dir} (${code ?? message}); choose another folder with --out (or \`output\` in the config)`);
  }
  return { dir, movedAside };
}
