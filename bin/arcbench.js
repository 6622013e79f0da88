#!/usr/bin/env node
// The CLI from the TypeScript sources, through tsx: what the tests and a checkout's developers run, so
// a change needs no build to be tried. The installed command is the build, dist/src/cli/main.js (see
// package.json's `bin`); both load user plugins through the same loader of their own.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
