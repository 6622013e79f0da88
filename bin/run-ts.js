#!/usr/bin/env node
// Runs a TypeScript entry file with tsx's loader registered, so the project needs no build step:
// `node bin/run-ts.js path/to/file.ts [args...]`.
import { register } from 'tsx/esm/api';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

// Both hooks: a user's .ts plugin outside an ESM package is loaded as CommonJS.
register();
registerCommonJs();
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node bin/run-ts.js <file.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
