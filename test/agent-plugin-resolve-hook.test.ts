// The plugin folder's resolve hook (src/agent/pluginResolveHook.js) on what each Node version's own
// resolver says of a TypeScript plugin outside an ESM package: Node 20 says `commonjs`; Node 22.7 and
// later, which strip types themselves, say nothing yet (the format is settled on loading) or
// `commonjs-typescript`. Whatever it says, the plugin must load as an ES module: as CommonJS, its
// `import … from 'arcbench'` becomes a require() that no module hook reaches, and on Node 24 every
// TypeScript plugin outside a project failed to load. The resolver after ours is Node's, outside this
// project, so a stand-in answers as each version does. (Checked by hand under Node 24.21: such a plugin
// fails to load before the fix and plays after it.)
import { describe, expect, it } from 'vitest';

interface Resolved {
  readonly url: string;
  readonly format?: string | null;
}

interface ResolveHook {
  initialize(data: { entryUrl: string; pluginFolderUrl: string }): void;
  resolve(specifier: string, context: { parentURL?: string }, next: (specifier: string) => Promise<Resolved>): Promise<Resolved>;
}

const FOLDER = 'file:///home/user/agents/';
const ENTRY = 'file:///opt/arcbench/dist/src/index.js';
// A specifier that is not a literal: the hook is plain JavaScript, typed here by what Node calls on it.
const hook = (await import(new URL('../src/agent/pluginResolveHook.js', import.meta.url).href)) as ResolveHook;
hook.initialize({ entryUrl: ENTRY, pluginFolderUrl: FOLDER });

/** Node's resolver as a given version answers: the file's URL, with this format. */
const nodeSays =
  (format: string | null | undefined) =>
  async (specifier: string): Promise<Resolved> => ({ url: new URL(specifier, FOLDER).href, format });

describe("the plugin folder's resolve hook", () => {
  it.each([['commonjs'], [null], [undefined], ['commonjs-typescript']])('loads a .ts plugin that Node resolves as %s as an ES module', async (format) => {
    const resolved = await hook.resolve('./probe.ts', { parentURL: FOLDER }, nodeSays(format));
    expect(resolved).toMatchObject({ url: `${FOLDER}probe.ts`, format: 'module' });
  });

  it('keeps the namespace of the TypeScript loader that asked', async () => {
    const resolved = await hook.resolve('./probe.ts', {}, async () => ({ url: `${FOLDER}probe.ts?tsx-namespace=arcbench-plugins`, format: null }));
    expect(resolved).toEqual({ url: `${FOLDER}probe.ts?tsx-namespace=arcbench-plugins`, format: 'module' });
  });

  it('leaves ES modules, JavaScript, other folders and node_modules as Node resolves them', async () => {
    expect(await hook.resolve('./probe.ts', {}, nodeSays('module-typescript'))).toMatchObject({ format: 'module-typescript' });
    expect(await hook.resolve('./helper.js', {}, nodeSays('commonjs'))).toMatchObject({ format: 'commonjs' });
    expect(await hook.resolve('../elsewhere/probe.ts', {}, nodeSays(null))).toMatchObject({ format: null });
    expect(await hook.resolve('./node_modules/dep/index.ts', {}, nodeSays('commonjs'))).toMatchObject({ format: 'commonjs' });
  });

  it('maps arcbench to the package entry', async () => {
    const asked: string[] = [];
    await hook.resolve('arcbench', {}, async (specifier) => {
      asked.push(specifier);
      return { url: specifier, format: 'module' };
    });
    expect(asked).toEqual([ENTRY]);
  });
});
