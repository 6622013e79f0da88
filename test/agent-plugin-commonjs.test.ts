// A `.js` plugin in a folder whose package.json says "type": "commonjs" (what `npm init` writes) and
// where arcbench is not installed: its require('arcbench') cannot be mapped (CommonJS resolution
// reaches no module hook), so the error says what to do. With arcbench installed, both `export default`
// and `module.exports` plugins load: test/package.test.ts runs them from the packed package.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgent } from '../src/index.ts';

const PLUGIN = `
import { defineAgent, action } from 'arcbench';
export default defineAgent({ name: 'esm-syntax', create: () => ({ act: (frame) => action(frame.available_actions[0]) }) });
`;

describe('.js plugins in a CommonJS package without arcbench installed', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-cjs-plugin-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(join(dir, 'agent.js'), PLUGIN);
    writeFileSync(join(dir, 'agent.mjs'), PLUGIN);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says to install arcbench or to write an ES module', async () => {
    await expect(loadAgent('./agent.js', dir)).rejects.toThrow(
      /agent "\.\/agent\.js" failed to load: Cannot find module 'arcbench' from a CommonJS plugin .*; install arcbench in its project \(npm install arcbench\), or make the plugin an ES module \(\.mjs, or \.ts\)$/,
    );
  });

  it('loads the same plugin as an .mjs file', async () => {
    expect((await loadAgent('./agent.mjs', dir)).name).toBe('esm-syntax');
  });
});
