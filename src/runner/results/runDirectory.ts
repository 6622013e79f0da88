/** The run folder: `--out <dir>`, or `<output>/<timestamp>-<name>/`, with its recordings/ subfolder. */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/loader.ts';

/** 2025-01-31T12-05-09Z: sortable, and legal in file names everywhere. */
function runTimestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

export function createRunDirectory(options: { out?: string; output: string; name: string; at: Date; recordings: boolean }): string {
  let dir: string;
  if (options.out !== undefined) {
    dir = resolve(options.out);
  } else {
    const base = resolve(options.output, `${runTimestamp(options.at)}-${options.name}`);
    dir = base;
    // Two runs started in the same second must not share a folder.
    for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  }
  try {
    mkdirSync(dir, { recursive: true });
    if (options.recordings) mkdirSync(join(dir, 'recordings'), { recursive: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError(`cannot create the results folder ${dir} (${code ?? message}); choose another folder with --out (or \`output\` in the config)`);
  }
  return dir;
}
