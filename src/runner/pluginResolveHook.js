// Node module resolve hook (module.register), registered by agentLoader.ts. Plain JavaScript because
// hooks run on Node's loader thread, before any TypeScript loader could help.
//
// 1. The bare specifier `arcbench` resolves to this package's entry, so a plugin in any folder (a temp
//    dir without node_modules) can `import { defineAgent } from 'arcbench'`.
// 2. A TypeScript plugin outside an ESM package would be compiled as CommonJS, whose require() never
//    reaches this hook; plugins (URLs carrying the marker) and the TypeScript files they import are
//    loaded as ES modules instead.

const MARKER = 'arcbench-plugin';
let entryUrl;

export function initialize(data) {
  entryUrl = data.entryUrl;
}

const isTypeScript = (url) => /\.(ts|tsx|mts)$/.test(new URL(url).pathname);
const carriesMarker = (url) => typeof url === 'string' && url.includes(MARKER);

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'arcbench') return nextResolve(entryUrl, context);
  const resolved = await nextResolve(specifier, context);
  const fromPlugin = carriesMarker(context.parentURL);
  if (!resolved.url.startsWith('file:') || resolved.url.includes('/node_modules/')) return resolved;
  if (!carriesMarker(resolved.url) && !(fromPlugin && isTypeScript(resolved.url))) return resolved;
  let url = resolved.url;
  if (!carriesMarker(url)) url += (url.includes('?') ? '&' : '?') + MARKER;
  return { ...resolved, url, format: isTypeScript(url) ? 'module' : resolved.format };
}
