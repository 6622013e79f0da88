/**
 * A file a command is told to write (`report --out`, `schema --out`, `compare --html`), checked before
 * any work: a folder that does not exist is the user's typo, said in one sentence with exit 2, not a
 * stack trace after the work is done (exit 1 reads as a regression to CI).
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ArcbenchError } from '../errors.ts';

export class OutputPathError extends ArcbenchError {
  constructor(message: string) {
    super('OUTPUT_PATH_INVALID', message);
  }
}

/** Throws an OutputPathError naming the flag when `path` cannot be a file written there. */
export function checkOutputPath(flag: string, path: string): void {
  const folder = dirname(resolve(path));
  const kind = kindOf(folder);
  if (kind === 'missing') throw new OutputPathError(`${flag} ${path}: the folder ${folder} does not exist; create it first or choose another path`);
  if (kind === 'file') throw new OutputPathError(`${flag} ${path}: ${folder} is a file, not a folder; choose another path`);
  if (kindOf(resolve(path)) === 'folder') throw new OutputPathError(`${flag} ${path}: that is a folder; name a file in it`);
}

function kindOf(path: string): 'missing' | 'file' | 'folder' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
