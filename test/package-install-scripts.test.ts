// npm 11 warns, on every install, of each dependency whose install script the project's `allowScripts`
// does not cover (and npm 12 skips them): a newcomer reads those lines as ours. Every package of the
// lockfile that has an install script is declared, by name, so `npm ci` in a clone prints none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const read = (name: string) => JSON.parse(readFileSync(join(ROOT, name), 'utf8'));

describe('install scripts', () => {
  it("package.json's allowScripts names every locked package that has an install script", () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const allowed = (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    expect([...new Set(withScripts)].filter((name) => !(name in allowed))).toEqual([]);
  });
});
