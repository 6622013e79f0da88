/**
 * Where this package's own files are. arcbench runs from its TypeScript sources (`src/`, in a checkout,
 * under tsx or vitest) and from its build (`dist/src/`, in an installed package); this file sits at the
 * top of either, so every path below is known from its own URL.
 */
import { readFileSync } from 'node:fs';

/** The folder of the code running now: `src/` or `dist/src/`. */
export const CODE_ROOT = new URL('./', import.meta.url);

/** `.ts` when running from the sources, `.js` from the build: the extension of our own modules. */
export const MODULE_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** The package's root, where package.json is. */
export const PACKAGE_ROOT = new URL(MODULE_EXTENSION === '.ts' ? '../' : '../../', CODE_ROOT);

/** The package entry (`import … from 'arcbench'`) as the code running now has it. */
export const PACKAGE_ENTRY = new URL(`index${MODULE_EXTENSION}`, CODE_ROOT);

/** The built-in agents' folder: `agents/` beside `src/`, or `dist/agents/` beside `dist/src/`. */
export const BUILT_IN_AGENTS_DIR = new URL('../agents/', CODE_ROOT);

let manifest: { name: string; version: string } | undefined;

/** arcbench's own package.json (never the user's project's). */
export function packageManifest(): { name: string; version: string } {
  manifest ??= JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { name: string; version: string };
  return manifest;
}
