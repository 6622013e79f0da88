/**
 * The page's script and styles. The script is bundled from the front end in page/ with esbuild when a
 * page is first written (about a tenth of a second), then kept for the life of the process.
 *
 * The front end is found the same way whether this module runs from its sources (tsx, the tests) or
 * from the build in dist/ that the package ships: in page/ next to this file, as TypeScript or as the
 * build's JavaScript (the nearest `src/report/page/` above is tried last, for a build without it).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_STYLES } from './page/styles.ts';

export interface PageAssets {
  script: string;
  style: string;
}

const ENTRIES = ['main.ts', 'main.js'] as const;

let assets: Promise<PageAssets> | undefined;

export function pageAssets(): Promise<PageAssets> {
  assets ??= bundlePage().catch((error: unknown) => {
    assets = undefined; // a failed build is tried again next time, not remembered
    throw error;
  });
  return assets;
}

/** The front end's entry file: page/main.ts (sources) or page/main.js (the build) beside `from`, else the nearest src/report/page/main.ts above. */
export function pageEntry(from = dirname(fileURLToPath(import.meta.url))): string {
  for (const entry of ENTRIES) if (existsSync(join(from, 'page', entry))) return join(from, 'page', entry);
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'src', 'report', 'page', ENTRIES[0]);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error("the report's front end (report/page/main.ts or .js) is missing from this installation of arcbench; reinstall the package");
}

async function bundlePage(): Promise<PageAssets> {
  // Imported only to bundle: the package entry exports writeReport, and a plugin should not load esbuild.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [pageEntry()],
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
  const [bundle] = result.outputFiles;
  if (bundle === undefined) throw new Error("esbuild wrote no bundle of the report's front end");
  return { script: bundle.text, style: PAGE_STYLES };
}
