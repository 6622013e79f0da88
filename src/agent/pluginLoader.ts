/**
 * Loads agent plugins: a built-in by name (agents/<name>.ts) or a user's module by path (.ts, .mts,
 * .js, .mjs). Every agent, built-ins included, goes through the same path a user's plugin does.
 */
import { existsSync } from 'node:fs';
import { ArcbenchError } from '../errors.ts';
import { register } from 'node:module';
import { dirname, isAbsolute, resolve as resolvePath, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register as registerTypeScript, type NamespacedUnregister } from 'tsx/esm/api';
import { type AgentDefinition, isAgentDefinition } from './defineAgent.ts';

export const BUILT_IN_AGENTS = ['random', 'explorer', 'replay'] as const;

const AGENTS_DIR = new URL('../../agents/', import.meta.url);
const PACKAGE_ENTRY = new URL('../index.ts', import.meta.url);

/** A `use` that a user meant as a file rather than a built-in name. */
function looksLikePath(use: string): boolean {
  return use.includes('/') || use.includes('\\') || /\.(m?ts|m?js|cjs|cts)$/.test(use);
}

export class AgentLoadError extends ArcbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('AGENT_LOAD_FAILED', message, options);
  }
}

/**
 * Plugins are imported through a tsx loader of their own, registered before our resolve hooks so those
 * run first (Node runs the last registered hook first). That is Node's import() whatever the host: a
 * plugin goes through our hooks even under a test runner that transforms modules itself, and `.ts`
 * loads even where the host registered no TypeScript loader.
 */
let pluginLoader: NamespacedUnregister | undefined;
const hookedFolders = new Set<string>();

/** One hook per plugin folder: it maps `arcbench` and loads the folder's TypeScript as ES modules. */
function ensureHooks(file: string): NamespacedUnregister {
  pluginLoader ??= registerTypeScript({ namespace: 'arcbench-plugins' });
  const pluginFolderUrl = pathToFileURL(dirname(file) + sep).href;
  if (!hookedFolders.has(pluginFolderUrl)) {
    register(new URL('./pluginResolveHook.js', import.meta.url), { data: { entryUrl: PACKAGE_ENTRY.href, pluginFolderUrl } });
    hookedFolders.add(pluginFolderUrl);
  }
  return pluginLoader;
}

const cache = new Map<string, Promise<AgentDefinition>>();

/** Where `use` points: the built-in's file or the user's file (relative to `baseDir`). */
function agentModuleFile(use: string, baseDir: string): string | undefined {
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
  const loader = ensureHooks(file);
  let module: Record<string, unknown>;
  try {
    module = (await loader.import(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new AgentLoadError(`agent "${use}" failed to load: ${(error as Error).message}`, { cause: error });
  }
  const definition = module.default;
  if (!isAgentDefinition(definition)) {
    throw new AgentLoadError(`agent "${use}" (${file}) must default-export defineAgent({ name, params, create }) imported from 'arcbench'`);
  }
  return definition;
}
