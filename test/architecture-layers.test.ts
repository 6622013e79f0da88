// Dependencies point one way (DESIGN.md, "Layout"): no module in src/ imports a layer above its own,
// and the built-in agents use only the package entry, as a user's plugin does. Every import is read,
// static, `export … from` and dynamic `import('…')` alike, by TypeScript's own import scanner (which
// skips comments and strings); a type-only import counts too, since it ties the layers just the same.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/**
 * The allowed graph: each layer (a folder of src/) and the layers it may import besides its own. The
 * base files (BASE below) may be imported by anything. Read bottom-up:
 *   protocol ← games ← reference;  protocol ← client;  protocol ← agent, recording
 *   recording, agent (usage types), reference (scoring types) ← runfolder: the run folder's format
 *   runfolder, reference ← analysis: statistics and scoring over records, nothing of episode/runner/report/scale/cli
 *   client, agent, runfolder, analysis ← episode: the loop
 *   episode, analysis, runfolder ← runner ← report, scale ← cli
 * The runner never imports scale: the CLI passes it the worker pool's scheduler. runfolder and episode do
 * not import each other in a circle: the episode writes the folder, the folder knows nothing of the loop.
 */
const BELOW_EPISODE = ['client', 'agent', 'recording', 'runfolder', 'analysis', 'reference', 'games', 'protocol'];
const BELOW_RUNNER = ['episode', ...BELOW_EPISODE];
const MAY_IMPORT: Record<string, readonly string[]> = {
  protocol: [],
  games: ['protocol'],
  reference: ['games', 'protocol'],
  client: ['protocol'],
  agent: ['protocol'],
  recording: ['protocol'],
  runfolder: ['recording', 'agent', 'reference', 'games', 'protocol'],
  analysis: ['runfolder', 'recording', 'agent', 'reference', 'games', 'protocol'],
  episode: BELOW_EPISODE,
  runner: BELOW_RUNNER,
  report: ['runner', ...BELOW_RUNNER],
  scale: ['runner', ...BELOW_RUNNER],
  cli: ['report', 'scale', 'runner', ...BELOW_RUNNER],
  // The package entry, src/index.ts: all a plugin or a library user needs, never the CLI nor the worker
  // pool (which would load commander, bullmq and ioredis for every plugin).
  'index.ts': ['report', 'runner', ...BELOW_RUNNER],
};

/** Top-level files anything may import; they import only one another. */
const BASE = ['errors.ts', 'redaction.ts', 'packageFiles.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.split(sep).includes('node_modules'))
    .map((name) => join(dir, name));
}

/** Every module specifier a file names: static imports, re-exports and dynamic `import('…')`. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

/** The layer a path in src/ belongs to: its first folder, or its own name for a top-level file. */
function layerOf(path: string): string {
  return relative(SRC, path).split(sep)[0]!;
}

/** `file: import` for each import of a src/ file that reaches a layer its own may not import. */
function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = layerOf(file);
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const to = layerOf(resolve(dirname(file), specifier));
      if (to === from || BASE.includes(to)) continue;
      const allowed = BASE.includes(from) ? [] : MAY_IMPORT[from];
      if (allowed === undefined) found.push(`${relative(ROOT, file)}: its layer "${from}" is missing from MAY_IMPORT`);
      else if (!allowed.includes(to)) found.push(`${relative(ROOT, file)}: imports '${specifier}' (${from} may not import ${to})`);
    }
  }
  return found;
}

describe('the layers of src/', () => {
  it('the scanner sees static, re-exported and dynamic imports', () => {
    // What the rules below stand on: were the scanner to miss a kind of import, they would pass vacuously.
    expect(importsOf(join(SRC, 'cli', 'commands.ts'))).toContain('./run.ts');
    expect(importsOf(join(SRC, 'index.ts'))).toContain('./runner/runExperiment.ts');
    expect(importsOf(join(SRC, 'cli', 'run.ts'))).toContain('../scale/queue/queueScheduler.ts');
    expect(sourceFiles(SRC).length).toBeGreaterThan(100);
  });

  it('every folder of src/ is a layer of the table', () => {
    const layers = new Set(sourceFiles(SRC).map(layerOf));
    const unknown = [...layers].filter((layer) => !BASE.includes(layer) && MAY_IMPORT[layer] === undefined);
    expect(unknown).toEqual([]);
  });

  it('no module imports a layer above its own', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('the built-in agents import only the package entry (arcbench), packages and one another', () => {
    const agents = join(ROOT, 'agents');
    const outside = sourceFiles(agents).flatMap((file) =>
      importsOf(file)
        .filter((specifier) =>
          specifier.startsWith('.') ? relative(agents, resolve(dirname(file), specifier)).startsWith('..') : specifier.startsWith('arcbench/'),
        )
        .map((specifier) => `${relative(ROOT, file)}: imports '${specifier}'`),
    );
    expect(outside).toEqual([]);
  });
});
