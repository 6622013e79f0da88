// The resolve hook of recordModules.mjs. It runs last in the chain (registered first), so it sees what
// every loader registered later (tsx, arcbench's plugin hooks) finally resolved to.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
