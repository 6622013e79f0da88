// Node module resolve hook (module.register), registered by agentLoader.ts once per plugin folder.
// Plain JavaScript because hooks run on Node's loader thread, before any TypeScript loader could help.
//
// 1. The bare specifier `arcbench` resolves to this package's entry, so a plugin in any folder (a temp
//    dir without node_modules) can `import { defineAgent } from 'arcbench'`.
// 2. A TypeScript file outside an ESM package would be compiled as CommonJS, whose require() never
//    reaches this hook; TypeScript files in the plugin's folder are loaded as ES modules instead.

let entryUrl;
let pluginFolderUrl;

export function initialize(data) {
  entryUrl = data.entryUrl;
  pluginFolderUrl = data.pluginFolderUrl;
}

/** The file's path, past the query tsx's scoped loader may fold into it (`plug.ts%3Fnamespace=…`). */
const filePath = (url) => decodeURIComponent(new URL(url).pathname).split('?')[0];

function inPluginFolder(url) {
  if (pluginFolderUrl === undefined || !url.startsWith(pluginFolderUrl)) return false;
  const path = filePath(url);
  return !path.includes('/node_modules/') && /\.(ts|tsx)$/.test(path);
}

/** The same file as an ES module of tsx's scoped loader: its namespace kept, its CommonJS markers dropped. */
function asModuleUrl(url) {
  const parsed = new URL(url);
  const clean = new URL(`file://${filePath(url)}`);
  const namespace = parsed.searchParams.get('tsx-namespace');
  if (namespace !== null) clean.searchParams.set('tsx-namespace', namespace);
  return clean.href;
}

/**
 * Formats that would not load a file as an ES module. Node 20 says `commonjs` for a `.ts` file outside
 * an ESM package; Node 22.7 and later, which strip TypeScript's types themselves, leave the format
 * unset at resolve time (null) or say `commonjs-typescript`, and decide on loading.
 */
const NOT_MODULE_FORMATS = new Set([null, undefined, 'commonjs', 'commonjs-typescript']);

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'arcbench') return nextResolve(entryUrl, context);
  const resolved = await nextResolve(specifier, context);
  if (NOT_MODULE_FORMATS.has(resolved.format) && inPluginFolder(resolved.url)) return { ...resolved, url: asModuleUrl(resolved.url), format: 'module' };
  return resolved;
}
