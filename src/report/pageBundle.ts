/**
 * The page's script and styles, built from the TypeScript front end in page/ with esbuild when a page
 * is first written (about a tenth of a second), then kept for the life of the process.
 *
 * The front end ships as source (package.json `files` holds src/), so the bundle is found the same way
 * whether this module runs from src/ through tsx or from a build under dist/: next to this file, or
 * else in the nearest `src/report/page/` above it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface PageAssets {
  script: string;
  style: string;
}

const ENTRY = 'main.ts';
const STYLE = 'styles.css';

let assets: Promise<PageAssets> | undefined;

export function pageAssets(): Promise<PageAssets> {
  assets ??= bundlePage().catch((error: unknown) => {
    assets = undefined; // a failed build is tried again next time, not remembered
    throw error;
  });
  return assets;
}

export function pageSourceFolder(from = dirname(fileURLToPath(import.meta.url))): string {
  const beside = join(from, 'page');
  if (existsSync(join(beside, ENTRY))) return beside;
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'src', 'report', 'page');
    if (existsSync(join(candidate, ENTRY))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`the report's front end (src/report/page/${ENTRY}) is missing from this installation of arcbench; reinstall the package`);
}

async function bundlePage(): Promise<PageAssets> {
  const folder = pageSourceFolder();
  const result = await build({
    entryPoints: [join(folder, ENTRY)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox113', 'safari16.4'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  return { script: result.outputFiles[0].text, style: readFileSync(join(folder, STYLE), 'utf8') };
}
