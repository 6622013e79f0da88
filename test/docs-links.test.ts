/**
 * The README is the front door and docs/ holds the guides: the README stays short, and every relative
 * link in it and in the guides leads to a file that exists and, when it names an anchor, to a heading
 * that target has (by GitHub's slug rules), so moving a section cannot leave a link pointing nowhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const README = join(ROOT, 'README.md');
const PAGES = [
  README,
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** The text outside fenced code blocks: a link or heading inside a block is code, not markdown. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: inline markup dropped, lowercase, punctuation removed, spaces to '-'. */
function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page's headings make, the repeats numbered as GitHub numbers them (`-1`, `-2`). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(heading as string);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of a page's inline links, `[text](target)` and `![alt](target)`, outside code. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with one link of a page, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${target}: no file ${relative(ROOT, file)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor into a file that is not markdown`;
  const anchors = anchorsOf(readFileSync(file, 'utf8'));
  return anchors.has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `${target}: ${relative(ROOT, file)} has no heading #${anchor}`;
}

describe('README.md and docs/', () => {
  it('reads slugs and links as GitHub does', () => {
    expect(slugOf("7a. The toolkit's dialect")).toBe('7a-the-toolkits-dialect');
    expect(slugOf('Looking at a run: `report.html` and `arcbench view`')).toBe('looking-at-a-run-reporthtml-and-arcbench-view');
    expect(slugOf('1. An agent in TypeScript')).toBe('1-an-agent-in-typescript');
    expect(slugOf('Python agents, and agents in any language')).toBe('python-agents-and-agents-in-any-language');
    expect([...anchorsOf('# A\n## Notes\n```sh\n# not a heading\n```\n## Notes\n')]).toEqual(['a', 'notes', 'notes-1']);
    expect(linksOf('see [a](docs/a.md#x), `[not](a link)`, ![img](p.png "t") and\n```\n[code](x.md)\n```\n')).toEqual(['docs/a.md#x', 'p.png']);
  });

  it('keeps the README a front door: at most 300 lines', () => {
    const lines = readFileSync(README, 'utf8').split('\n').length;
    expect(lines, `README.md has ${lines} lines; move detail into a guide under docs/`).toBeLessThanOrEqual(300);
  });

  it('starts the README with the two commands a newcomer needs', () => {
    const readme = readFileSync(README, 'utf8');
    const [, commands] = /^# arcbench\n\n```sh\n([\s\S]*?)```/.exec(readme) ?? [];
    expect(
      commands
        ?.split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/\s+#.*$/, '')),
    ).toEqual(['npm ci && npx arcbench run configs/quickstart.yaml', 'npm test']);
  });

  it('links only to files that exist and to headings those files have', () => {
    const broken: string[] = [];
    let count = 0;
    for (const page of PAGES) {
      for (const target of linksOf(readFileSync(page, 'utf8'))) {
        if (isExternal(target)) continue;
        count++;
        const problem = brokenLink(page, target);
        if (problem !== undefined) broken.push(`${relative(ROOT, page)} → ${problem}`);
      }
    }
    expect(broken, 'links that resolve to no file or no heading').toEqual([]);
    // The README alone links every guide; far fewer means the link pattern stopped matching.
    expect(count).toBeGreaterThan(20);
  });

  it('links every guide in docs/ from the README', () => {
    const linked = new Set(linksOf(readFileSync(README, 'utf8')).map((target) => target.split('#')[0]));
    const unlinked = PAGES.filter((page) => page !== README)
      .map((page) => relative(ROOT, page))
      .filter((page) => !linked.has(page));
    expect(unlinked, 'guides the README does not link').toEqual([]);
  });
});
