/**
 * Loads agent plugins: a built-in by name (agents/<name>.ts, or its build in dist/agents/) or a user's
 * module by path (.ts, .mts, .js, .mjs). Every agent, built-ins included, goes through the same path a
 * user's plugin does.
 */
import { existsSync } from 'node:fs';
import { ArcbenchError } from '../errors.ts';
import { looksLikeSecretValue } from '../redaction.ts';
import { register } from 'node:module';
import { dirname, isAbsolute, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { NamespacedUnregister } from 'tsx/esm/api';
import { BUILT_IN_AGENTS_DIR, MODULE_EXTENSION, PACKAGE_ENTRY } from '../packageFiles.ts';
import { type AgentDefinition, isAgentDefinition } from './defineAgent.ts';
import { loadProcessAgent } from './process/loadProcessAgent.ts';
import { notExecutableAdvice, type ProcessAgentOptions, processAgentCommand } from './process/processAgentSource.ts';

export const BUILT_IN_AGENTS = ['random', 'explorer', 'replay', 'llm'] as const;

/** A `use` that a user meant as a file rather than a built-in name. */
function looksLikePath(use: string): boolean {
  return use.includes('/') || use.includes('\\') || /\.(m?ts|m?js|cjs|cts)$/.test(use);
}

export class AgentLoadError extends ArcbenchError {
  /** The agent entry's field the error is about (`use` unless said). */
  readonly field: string;
  constructor(message: string, options?: { cause?: unknown; field?: string }) {
    super('AGENT_LOAD_FAILED', message, options);
    this.field = options?.field ?? 'use';
  }
}

/**
 * Plugins are imported through a tsx loader of their own, registered before our resolve hooks so those
 * run first (Node runs the last registered hook first). That is Node's import() whatever the host: a
 * plugin goes through our hooks even under a test runner that transforms modules itself, and `.ts`
 * loads even where the host registered no TypeScript loader.
 */
let pluginLoader: Promise<NamespacedUnregister> | undefined;
const hookedFolders = new Set<string>();

/**
 * One hook per plugin folder: it maps `arcbench` and loads the folder's TypeScript as ES modules. tsx
 * (and esbuild under it) is imported here, at the first plugin, so `import 'arcbench'` never loads them.
 */
async function ensureHooks(file: string): Promise<NamespacedUnregister> {
  pluginLoader ??= import('tsx/esm/api').then(({ register: registerTypeScript }) => registerTypeScript({ namespace: 'arcbench-plugins' }));
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
  if ((BUILT_IN_AGENTS as readonly string[]).includes(use)) return fileURLToPath(new URL(`${use}${MODULE_EXTENSION}`, BUILT_IN_AGENTS_DIR));
  return undefined;
}

/**
 * The agent definition named by `use`. Errors are sentences for the config's author; the caller adds
 * where in the config the `use` came from.
 */
export function loadAgent(use: string, baseDir: string, options: ProcessAgentOptions = {}): Promise<AgentDefinition> {
  const processAgent = processAgentCommand(use, baseDir, options);
  if (processAgent !== undefined) {
    return loadProcessAgent(processAgent.file, processAgent.command, BUILT_IN_AGENTS, options.modelGateway).catch((error: unknown) => {
      throw new AgentLoadError((error as Error).message, { cause: error });
    });
  }
  const advice = notExecutableAdvice(use, baseDir);
  if (advice !== undefined) return Promise.reject(new AgentLoadError(advice));
  if (options.modelGateway !== undefined) {
    return Promise.reject(
      new AgentLoadError(
        'model_gateway is for agent processes (a .py agent or an executable), whose SDK calls it can see; a TypeScript agent reports its own usage and transcripts (reportUsage, keepTranscript): remove model_gateway from this entry',
        { field: 'model_gateway' },
      ),
    );
  }
  const file = agentModuleFile(use, baseDir);
  if (file === undefined) {
    return Promise.reject(
      new AgentLoadError(
        `${looksLikeSecretValue(use) ? 'use holds a value that looks like a key (not shown), not an agent' : `no agent named "${use}"`}; built-ins: ${BUILT_IN_AGENTS.join(', ')} (or give a path to a .ts, .js or .py file, or an executable)`,
      ),
    );
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
  const loader = await ensureHooks(file);
  let module: Record<string, unknown>;
  try {
    module = (await loader.import(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new AgentLoadError(`agent "${use}" failed to load: ${loadFailure(error)}`, { cause: error });
  }
  const definition = defaultExport(module);
  if (!isAgentDefinition(definition)) {
    throw new AgentLoadError(`agent "${use}" (${file}) must default-export defineAgent({ name, params, create }) imported from 'arcbench'`);
  }
  return definition;
}

/**
 * Why an import failed. A CommonJS module's require() is resolved by Node's CommonJS resolver, which no
 * module hook reaches: `arcbench` is found only in node_modules, so say how to get it there.
 */
function loadFailure(error: unknown): string {
  const { code, message } = error as { code?: unknown; message: string };
  if (code !== 'MODULE_NOT_FOUND' || !message.startsWith("Cannot find module 'arcbench'")) return message;
  return (
    `Cannot find module 'arcbench' from a CommonJS plugin (a .js file whose package.json says "type": "commonjs"); ` +
    'install arcbench in its project (npm install arcbench), or make the plugin an ES module (.mjs, or .ts)'
  );
}

/**
 * The module's default export. A plugin written with `export default` in a CommonJS package (a `.js`
 * file where package.json says `"type": "commonjs"`) is compiled to `exports.default = …` and imported
 * as `{ default: module.exports }`, so its export sits one level down; `module.exports = defineAgent(…)`
 * sits at the top.
 */
function defaultExport(module: Record<string, unknown>): unknown {
  const value = module.default;
  if (isAgentDefinition(value)) return value;
  const inner = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).default : undefined;
  return isAgentDefinition(inner) ? inner : value;
}
