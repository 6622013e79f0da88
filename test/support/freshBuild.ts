/**
 * Whether dist/ is the build of the checkout as it is now, so a test that packs the package may skip
 * building it again (`npm ci` has just built it in CI; a build is eight seconds of CPU).
 *
 * `npm run build` removes dist/ and writes it anew, so its oldest file is about when that build ran.
 * The build is fresh when no input changed since: no file of src/ or agents/ (nor a folder there,
 * whose time changes when a file is added, removed or renamed), no tsconfig, package.json or TypeScript.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const INPUT_FOLDERS = ['src', 'agents'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'node_modules/typescript/package.json'];
const BUILT_CLI = 'dist/src/cli/main.js';

/** Modification times (ms) of the files under a folder, and of the folder and its folders if asked. */
function timesUnder(path: string, withFolders: boolean): number[] {
  const times = withFolders ? [statSync(path).mtimeMs] : [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) times.push(...timesUnder(child, withFolders));
    else times.push(statSync(child).mtimeMs);
  }
  return times;
}

export function buildIsFresh(root: string): boolean {
  if (!existsSync(join(root, BUILT_CLI))) return false;
  const inputs = [...INPUT_FOLDERS.flatMap((folder) => timesUnder(join(root, folder), true)), ...INPUT_FILES.map((file) => statSync(join(root, file)).mtimeMs)];
  return Math.max(...inputs) < Math.min(...timesUnder(join(root, 'dist'), false));
}
