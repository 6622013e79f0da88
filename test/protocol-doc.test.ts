/**
 * Comments cite the service's contract by section ("docs/protocol.md" then a section sign and a
 * number); every such citation in the code, the tests and the benchmarks names a section the document
 * has, so renumbering it cannot leave a citation pointing nowhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const CITING_FOLDERS = ['src', 'agents', 'test', 'bench'];
// The README and the guides beside the document cite it too.
const CITING_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'protocol.md')
    .map((name) => join('docs', name)),
];
const TEXT_FILE = /\.(ts|mts|js|mjs|cjs|py|md|html|css)$/;

function textFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return item.name === 'node_modules' || item.name === 'dist' ? [] : textFiles(path);
    return TEXT_FILE.test(item.name) ? [path] : [];
  });
}

/** The sections the document has: `## 4. …` gives 4, `## 7a. …` 7a, `### 4.3 …` 4.3. */
function sectionsOf(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const [, id] of markdown.matchAll(/^## (\d+[a-z]?)\. /gm)) sections.add(id as string);
  for (const [, id] of markdown.matchAll(/^### (\d+\.\d+) /gm)) sections.add(id as string);
  return sections;
}

/** Every section a text cites: "§4", "§4.3", "§7a", and each end of "§4–§5" or "§2, §6, §8". */
function citationsIn(text: string): string[] {
  const cited: string[] = [];
  for (const [, run] of text.matchAll(/docs\/protocol\.md((?:\s*(?:,|–|-|and)?\s*§\d+[a-z]?(?:\.\d+)?)+)/g)) {
    for (const [, id] of (run as string).matchAll(/§(\d+[a-z]?(?:\.\d+)?)/g)) cited.push(id as string);
  }
  return cited;
}

describe('docs/protocol.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'protocol.md'), 'utf8');
  const sections = sectionsOf(doc);

  it('has the sections 1 to 9, 7a, and the numbered rules of §4', () => {
    for (const id of ['1', '2', '3', '4', '4.1', '4.2', '4.3', '4.4', '4.5', '5', '6', '7', '7a', '8', '9']) expect(sections.has(id), id).toBe(true);
  });

  it('reads citations as the code writes them', () => {
    expect(citationsIn('rules (docs/protocol.md §4–§5), then §6')).toEqual(['4', '5']);
    expect(citationsIn('see docs/protocol.md §2, §6, §8: and')).toEqual(['2', '6', '8']);
    expect(citationsIn('GAME_OVER (docs/protocol.md §4.5). Never')).toEqual(['4.5']);
    expect(citationsIn('answers say false (docs/protocol.md §7a); off')).toEqual(['7a']);
    expect(citationsIn('the palette of docs/protocol.md §1.')).toEqual(['1']);
  });

  it('has every section the code, tests and benchmarks cite', () => {
    const files = [...CITING_FOLDERS.flatMap((folder) => textFiles(join(ROOT, folder))), ...CITING_FILES.map((file) => join(ROOT, file))];
    const missing: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const id of citationsIn(readFileSync(file, 'utf8'))) {
        count++;
        if (!sections.has(id)) missing.push(`${relative(ROOT, file)} cites §${id}`);
      }
    }
    expect(missing, 'citations of sections docs/protocol.md does not have').toEqual([]);
    // The code cites the document about a hundred times; far fewer means the pattern stopped matching.
    expect(count).toBeGreaterThan(50);
  });
});
