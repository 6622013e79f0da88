/**
 * `arcbench init [folder]`: writes a starter experiment and agent (templates/ of this package) that run
 * as they are, so a new project goes from `npm install arcbench` to a results table in two commands.
 * It never overwrites a file.
 */
import type { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../packageFiles.ts';
import { makeFolder } from '../runfolder/makeFolder.ts';
import { EXIT_OK, EXIT_USAGE } from './commandSupport.ts';

const TEMPLATES = new URL('templates/', PACKAGE_ROOT);
const CONFIG_SCHEMA = fileURLToPath(new URL('configs/arcbench.schema.json', PACKAGE_ROOT));

const EXPERIMENT = 'experiment.yaml';
const TYPESCRIPT_STARTERS = [
  { file: EXPERIMENT, what: 'your agent against the built-in random on every game, in-process' },
  { file: 'my-agent.ts', what: 'a starter agent to change' },
] as const;
/** `--python`: templates/python/, an agent in the official harness's shape. */
const PYTHON_STARTERS = [
  { file: EXPERIMENT, what: 'your Python agent against the built-in random on every game, in-process' },
  { file: 'my_agent.py', what: 'a starter agent in the official harness shape, to change' },
] as const;

export function register(program: Command): void {
  program
    .command('init')
    .description(`Write a starter experiment (${EXPERIMENT}) and agent (my-agent.ts) that run as they are.`)
    .argument('[folder]', 'where to write them (made if missing)', '.')
    .option('--python', 'a Python agent (my_agent.py, the official harness shape) instead of my-agent.ts')
    .addHelpText('after', '\nExisting files are never overwritten: init then writes nothing and exits 2.')
    .action((folder: string, options: { python?: boolean }) => {
      process.exit(initCommand(folder, options.python === true));
    });
}

function initCommand(folder: string, python: boolean): number {
  const target = resolve(folder);
  const STARTERS = python ? PYTHON_STARTERS : TYPESCRIPT_STARTERS;
  const templates = python ? new URL('python/', TEMPLATES) : TEMPLATES;
  const existing = STARTERS.map((starter) => starter.file).filter((file) => existsSync(join(target, file)));
  if (existing.length > 0) {
    process.stderr.write(
      `arcbench init: ${existing.join(' and ')} already in ${target}; init writes nothing over existing files: ` +
        'move them away, or give init another folder (npx arcbench init <folder>)\n',
    );
    return EXIT_USAGE;
  }
  const schema = schemaInProject(target);
  try {
    makeFolder(target);
  } catch (error) {
    process.stderr.write(
      `arcbench init: cannot create ${target} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give init another folder\n`,
    );
    return EXIT_USAGE;
  }
  for (const { file } of STARTERS) {
    const template = readFileSync(new URL(file, templates), 'utf8');
    const text = file === EXPERIMENT && schema !== undefined ? `# yaml-language-server: $schema=${schema}\n${template}` : template;
    // `wx`: fail rather than overwrite a file that appeared since the check above.
    writeFileSync(join(target, file), text, { flag: 'wx' });
  }
  const shown = (file: string) => relative(process.cwd(), join(target, file));
  const width = Math.max(...STARTERS.map((starter) => shown(starter.file).length));
  for (const { file, what } of STARTERS) process.stdout.write(`wrote ${shown(file).padEnd(width)}  ${what}\n`);
  if (schema === undefined && !python)
    process.stdout.write("my-agent.ts imports from 'arcbench': `npm install arcbench` in this project gives your editor its types\n");
  process.stdout.write(`next: npx arcbench run ${shown(EXPERIMENT)}\n`);
  return EXIT_OK;
}

/**
 * The experiment file's JSON Schema, relative to `folder`, when arcbench is installed in this project
 * (in node_modules of the folder or above it), so editors complete and check the file. A copy run by
 * `npx` from npm's cache, or a checkout elsewhere, would give a path that does not last.
 */
function schemaInProject(folder: string): string | undefined {
  const path = relative(folder, CONFIG_SCHEMA).split(sep).join('/');
  return /^(\.\.\/)*node_modules\//.test(path) ? path : undefined;
}
