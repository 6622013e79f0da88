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

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'arcbench') return nextResolve(entryUrl, context);
  const resolved = await nextResolve(specifier, context);
  if (resolved.format === 'commonjs' && inPluginFolder(resolved.url)) return { ...resolved, url: asModuleUrl(resolved.url), format: 'module' };
  return resolved;
}
