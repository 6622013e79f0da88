/**
 * Runs experiments with the built-in `llm` agent against the fake model server, through the real
 * config loader, runner and reference service, in a temp folder removed afterwards.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { solveLevel } from '../../src/games/engine/solver.ts';
import { gameInputOf } from '../../src/games/engine/moveInput.ts';
import { puzzleCatalog } from '../../src/games/puzzleCatalog.ts';
import { loadExperiment } from '../../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../../src/runfolder/episodeLog.ts';
import { type RunOptions, runExperiment } from '../../src/runner/runExperiment.ts';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type FakeModelServer, type FakeToolCall, startFakeModelServer, toolCall } from './fakeModelServer.ts';
import { firstOf } from './lists.ts';

/** A key no file or log may ever hold. */
export const SECRET_KEY = 'sk-test-NEVER-WRITTEN-4f2b9c7e1d';

export class TempFolder {
  readonly path = mkdtempSync(join(tmpdir(), 'arcbench-llm-'));

  /** Every file under the folder, with its text. */
  files(): Array<{ file: string; text: string }> {
    const found: Array<{ file: string; text: string }> = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else found.push({ file: path, text: readFileSync(path).toString('latin1') });
      }
    };
    walk(this.path);
    return found;
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * The hooks every LLM test file needs: one fake model server for the file, with its requests and
 * fallback reply forgotten after each test, and temporary folders removed after the test that made them.
 */
export function useFakeModelServer(): { readonly server: FakeModelServer; newFolder(): TempFolder } {
  let server: FakeModelServer | undefined;
  const folders: TempFolder[] = [];
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.remove();
    server?.requests.splice(0);
    server?.refused.splice(0);
    server?.setFallback(undefined);
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the fake model server starts in beforeAll; use it inside a test');
      return server;
    },
    newFolder() {
      const folder = new TempFolder();
      folders.push(folder);
      return folder;
    },
  };
}

/** The same hooks for any fake API server of ours (Responses, Anthropic): one per file, reset after each test. */
export function useFake<
  S extends { requests: unknown[]; refused: unknown[]; usages: unknown[]; setFallback(responder: undefined): void; close(): Promise<void> },
>(start: () => Promise<S>): { readonly server: S; newFolder(): TempFolder } {
  let server: S | undefined;
  const folders: TempFolder[] = [];
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.remove();
    server?.requests.splice(0);
    server?.refused.splice(0);
    server?.usages.splice(0);
    server?.setFallback(undefined);
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the fake server starts in beforeAll; use it inside a test');
      return server;
    },
    newFolder() {
      const folder = new TempFolder();
      folders.push(folder);
      return folder;
    },
  };
}

export interface LlmExperiment {
  name: string;
  games: string[];
  params: Record<string, unknown>;
  budgets?: Record<string, unknown>;
  episodes?: number;
  concurrency?: number;
  agents?: Array<{ use: string; label?: string; params?: Record<string, unknown>; factors?: Record<string, unknown> }>;
}

/** Writes the experiment into the folder, runs it, and reads back what a user would read. */
export async function runLlmExperiment(folder: TempFolder, experiment: LlmExperiment, options: RunOptions = {}) {
  const config = {
    name: experiment.name,
    games: experiment.games,
    agents: experiment.agents ?? [{ use: 'llm', params: experiment.params }],
    episodes: experiment.episodes ?? 1,
    seed: 1,
    concurrency: experiment.concurrency ?? 1,
    budgets: { max_actions: 20, ...experiment.budgets },
  };
  const file = join(folder.path, `${experiment.name}.yaml`);
  writeFileSync(file, stringify(config));
  const out = join(folder.path, 'runs', experiment.name);
  const result = await runExperiment(await loadExperiment(file), { out, ...options });
  return {
    ...result,
    out,
    episodesFromFile: parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8')),
    tableMarkdown: readFileSync(join(out, 'table.md'), 'utf8'),
    runJson: JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')),
  };
}

/** The moves that complete level 1 of a catalog game, as the tool calls a model would make. */
export function levelOneToolCalls(slug: string): { gameId: string; calls: FakeToolCall[] } {
  const game = puzzleCatalog().find((g) => g.info.slug === slug)!;
  const moves = solveLevel(game.definition, firstOf(game.levels, 'level')).moves;
  const layout = firstOf(game.layouts, 'level layout');
  const calls = moves.map((move) => {
    const input = gameInputOf(layout, move);
    return input.id === 6
      ? toolCall('ACTION6', { x: input.x, y: input.y, rationale: 'solver move' })
      : toolCall(`ACTION${input.id}`, { rationale: 'solver move' });
  });
  return { gameId: game.info.id, calls };
}
