/**
 * Loads agent plugins: a built-in by name (agents/<name>.ts) or a user's module by path (.ts, .mts,
 * .js, .mjs). Every agent, built-ins included, goes through the same path a user's plugin does.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AgentDefinition, isAgentDefinition } from './agentApi.ts';

export const BUILT_IN_AGENTS = ['random', 'explorer', 'replay'] as const;

const AGENTS_DIR = new URL('../../agents/', import.meta.url);
const PACKAGE_ENTRY = new URL('../index.ts', import.meta.url);
const PLUGIN_MARKER = 'arcbench-plugin';

/** A `use` that a user meant as a file rather than a built-in name. */
export function looksLikePath(use: string): boolean {
  return use.includes('/') || use.includes('\\') || /\.(m?ts|m?js|cjs|cts)$/.test(use);
}

export class AgentLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentLoadError';
  }
}

let hookRegistered = false;
let typeScriptLoaderRegistered = false;

function ensureResolveHook(): void {
  if (hookRegistered) return;
  register(new URL('./pluginResolveHook.js', import.meta.url), { data: { entryUrl: PACKAGE_ENTRY.href } });
  hookRegistered = true;
}

/**
 * Node's own import(), not a bundler's: under a test runner that transforms modules, a plugin still
 * goes through Node's loader and our resolve hook, exactly as under the CLI.
 */
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;

async function importPlugin(url: string): Promise<Record<string, unknown>> {
  try {
    return await nativeImport(url);
  } catch (error) {
    // The CLI registers tsx; a host that did not (a library user, a test runner) gets it here, once.
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || typeScriptLoaderRegistered) throw error;
    const { register: registerTypeScript } = await import('tsx/esm/api');
    registerTypeScript();
    typeScriptLoaderRegistered = true;
    return nativeImport(url);
  }
}

const cache = new Map<string, Promise<AgentDefinition>>();

/** Where `use` points: the built-in's file or the user's file (relative to `baseDir`). */
export function agentModuleFile(use: string, baseDir: string): string | undefined {
  if (looksLikePath(use)) return isAbsolute(use) ? use : resolvePath(baseDir, use);
  if ((BUILT_IN_AGENTS as readonly string[]).includes(use)) return new URL(`${use}.ts`, AGENTS_DIR).pathname;
  return undefined;
}

/**
 * The agent definition named by `use`. Errors are sentences for the config's author; the caller adds
 * where in the config the `use` came from.
 */
export function loadAgent(use: string, baseDir: string): Promise<AgentDefinition> {
  const file = agentModuleFile(use, baseDir);
  if (file === undefined) {
    return Promise.reject(new AgentLoadError(`no agent named "${use}"; built-ins: ${BUILT_IN_AGENTS.join(', ')} (or give a path to a .ts or .js file)`));
  }
  let loading = cache.get(file);
  if (loading === undefined) {
    loading = loadFile(use, file);
    cache.set(file, loading);
    loading.catch(() => cache.delete(file));
  }
  return loading;
}

async function loadFile(use: string, file: string): Promise<AgentDefinition> {
  if (!existsSync(file)) throw new AgentLoadError(`agent file ${file} does not exist; check the path (relative paths start at the config file's folder)`);
  ensureResolveHook();
  let module: Record<string, unknown>;
  try {
    module = await importPlugin(`${pathToFileURL(file).href}?${PLUGIN_MARKER}`);
  } catch (error) {
    throw new AgentLoadError(`agent "${use}" failed to load: ${(error as Error).message}`, { cause: error });
  }
  const definition = module.default;
  if (!isAgentDefinition(definition)) {
    throw new AgentLoadError(`agent "${use}" (${file}) must default-export defineAgent({ name, params, create }) imported from 'arcbench'`);
  }
  return definition;
}
