/**
 * Makes a folder and the missing ones above it, one level at a time. Node's `mkdirSync(dir, {
 * recursive: true })` reads ENOENT as "the parent is missing", makes the parent, and tries again; under
 * /proc (and other virtual file systems) mkdir answers ENOENT though the parent exists, so Node loops
 * inside one native call forever, at full CPU and deaf to signals (`--out /proc/x` did that). Here
 * each level is made once, and an ENOENT is an error like any other.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Another process made it in between: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}
