#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx: no build step after `npm ci`, and user
// agent plugins written in TypeScript load through the same loader.
import { register } from 'tsx/esm/api';
import { register as registerCommonJs } from 'tsx/cjs/api';

// Both hooks: a user's .ts plugin outside an ESM package is loaded as CommonJS.
register();
registerCommonJs();
await import('../src/cli/main.ts');
