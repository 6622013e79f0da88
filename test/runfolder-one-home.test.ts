// The run folder is a format with one home (src/runfolder/): no other file of src/ names one of its
// files or reads the names from their list, so a reader never learns the format on its own. Every
// string literal and template piece is read with TypeScript's own scanner (comments are not code).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const HOME = join(SRC, 'runfolder');
/** The names users see in a run folder (tests keep them literal on purpose). */
const FOLDER_FILES = ['run.json', 'episodes.jsonl', 'manifest.json', 'table.md', 'junit.xml', 'report.html', 'run.log', 'comparison.json', 'comparison.md'];
const FOLDER_FOLDERS = ['recordings', 'transcripts', 'checkpoints'];

/**
 * A literal that names a file of the folder as code would use it: the name alone or in a path, with
 * no space. Sentences a user reads may name the files ("see run.log"): that is telling, not reading.
 */
function namesAFolderFile(text: string): boolean {
  if (/\s/.test(text)) return false;
  return (
    FOLDER_FILES.some((name) => text.includes(name)) || FOLDER_FOLDERS.some((name) => text === name || text.startsWith(`${name}/`) || text.endsWith(`/${name}`))
  );
}

function sourceFilesOutsideHome(): string[] {
  return (
    readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(SRC, name))
      // The report's browser page (report/page) reads no file: it is handed the data.
      .filter((file) => !file.startsWith(HOME + sep) && !file.startsWith(join(SRC, 'report', 'page') + sep))
  );
}

/** Every string literal's and template piece's text in a file's code (types such as `T['recordings']` are not code). */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const literal = ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
    if (literal && !ts.isLiteralTypeNode(node.parent)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the run folder has one home', () => {
  it('no file outside src/runfolder/ imports the list of its file names', () => {
    const importers = sourceFilesOutsideHome().filter((file) =>
      ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.some((imported) => imported.fileName.endsWith('runfolder/fileNames.ts')),
    );
    expect(importers.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('no file outside src/runfolder/ uses the name of one of its files in code', () => {
    const naming = sourceFilesOutsideHome().flatMap((file) =>
      stringsOf(file)
        .filter(namesAFolderFile)
        .map((text) => `${relative(ROOT, file)}: ${JSON.stringify(text)}`),
    );
    expect(naming).toEqual([]);
  });

  it('the scanner sees literals and template pieces (else the rule above passes vacuously)', () => {
    expect(stringsOf(join(HOME, 'fileNames.ts'))).toContain('run.json');
    expect(stringsOf(join(SRC, 'cli', 'run.ts')).some((text) => text.includes('Results: '))).toBe(true);
  });
});
