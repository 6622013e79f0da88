// The package as a user gets it: packed with `npm pack` (which builds dist/ through `prepare`, unless
// dist/ is already the build of the checkout as it is, as right after `npm ci` in CI), installed from
// the tarball into a new project in a temp folder, and used there as a user would: from plain Node,
// from TypeScript, with `npx arcbench run` on .ts and CommonJS .js plugins, and `init`.
// Packed once and installed once; every case below works in that one project, all at once (they write
// to folders of their own), since most of their time is tsc and Node starting.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIsFresh } from './support/freshBuild.ts';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/**
 * The environment for commands in the user's project, without what `npm test` set for this package
 * (its name, its folder as npm's local prefix), which would point npm back at this checkout.
 */
const userEnvironment = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_config_call$|npm_command$|init_cwd$)/i.test(key)),
);

/** Runs a command and returns its output, failing with its output when it exits non-zero. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, encoding: 'utf8', env: userEnvironment, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.message}):\n${stderr}${stdout}`));
      else resolve(stdout);
    });
  });
}

// A TypeScript plugin that uses the plugin API the way the README shows.
const TS_PLUGIN = `
import { defineAgent, z, action, click, reset, stop, latestGrid, CLICK_ACTION_ID, type FrameResponse } from 'arcbench';

export default defineAgent({
  name: 'typed',
  params: z.strictObject({ limit: z.int().min(1).default(15) }),
  create: ({ params, rng }) => ({
    act(frame: FrameResponse, { step }) {
      if (frame.state === 'GAME_OVER') return reset();
      if (step >= params.limit) return stop('enough', { step });
      const id = rng.pick(frame.available_actions);
      if (id !== CLICK_ACTION_ID) return action(id);
      const [x, y] = [rng.int(64), rng.int(64)];
      return click(x, y, { colour: latestGrid(frame)[y * 64 + x] });
    },
  }),
});
`;

// What `npm init` writes today is "type": "commonjs"; a .js plugin there may use either syntax.
const CJS_EXPORT_DEFAULT = `
import { defineAgent, action, reset } from 'arcbench';
export default defineAgent({ name: 'export-default', create: () => ({ act: (frame) => (frame.state === 'GAME_OVER' ? reset() : action(frame.available_actions[0])) }) });
`;
const CJS_MODULE_EXPORTS = `
const { defineAgent, action, reset } = require('arcbench');
module.exports = defineAgent({ name: 'module-exports', create: () => ({ act: (frame) => (frame.state === 'GAME_OVER' ? reset() : action(frame.available_actions[0])) }) });
`;

const PLAIN_NODE = `
import { defineAgent, isAgentDefinition, ArcbenchError } from 'arcbench';
import { ReferenceService } from 'arcbench/reference';
import { queueScheduler } from 'arcbench/queue';
const agent = defineAgent({ name: 'plain', create: () => ({ act: () => ({ id: 0 }) }) });
console.log(JSON.stringify({ agent: isAgentDefinition(agent), errors: typeof ArcbenchError, reference: typeof ReferenceService, queue: typeof queueScheduler }));
`;

const experiment = (agents: string[]) =>
  `name: packaged\ngames: [slid]\nagents:\n${agents.map((use) => `  - use: ${use}\n`).join('')}episodes: 1\nbudgets:\n  max_actions: 20\n`;

const tsconfig = (options: Record<string, unknown>) =>
  JSON.stringify(
    { compilerOptions: { strict: true, target: 'ES2022', lib: ['ES2023'], noEmit: true, types: ['node'], ...options }, files: ['agent.ts'] },
    null,
    2,
  );

interface RunJson {
  status: string;
  agents: { label: string }[];
  totals: { episodes: number; errors: number };
  provenance: { arcbench_version: string; arcbench_git: unknown; experiment_git: { folder: string; sha: string | null; dirty: boolean | null } };
}

// Timeouts are generous: on a machine shared with other work, a type-check of the libraries alone has taken 60 s.
describe.concurrent('the installed package', { timeout: 180_000 }, () => {
  let dir: string;
  let project: string;
  let projectSha: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-package-'));
    const skipBuild = buildIsFresh(ROOT) ? ['--ignore-scripts'] : [];
    await run('npm', ['pack', '--pack-destination', dir, '--silent', ...skipBuild], ROOT);
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${dir}`);

    project = join(dir, 'project');
    mkdirSync(join(project, 'cjs'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'arcbench-user', private: true, type: 'module' }, null, 2));
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    writeFileSync(join(project, 'plain.mjs'), PLAIN_NODE);
    writeFileSync(join(project, 'agent.ts'), TS_PLUGIN);
    writeFileSync(join(project, 'my.yaml'), experiment(['./agent.ts', 'random']));
    writeFileSync(
      join(project, 'tsconfig.nodenext.json'),
      tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true }),
    );
    writeFileSync(join(project, 'tsconfig.bundler.json'), tsconfig({ module: 'ESNext', moduleResolution: 'bundler' }));
    writeFileSync(join(project, 'cjs', 'package.json'), JSON.stringify({ type: 'commonjs' }));
    writeFileSync(join(project, 'cjs', 'export-default.js'), CJS_EXPORT_DEFAULT);
    writeFileSync(join(project, 'cjs', 'module-exports.js'), CJS_MODULE_EXPORTS);
    writeFileSync(join(project, 'cjs', 'my.yaml'), experiment(['./export-default.js', './module-exports.js']));

    // @types/node: a TypeScript project on Node has it, and arcbench's types name Node's (Buffer, streams).
    await run('npm', ['install', join(dir, tarball), '@types/node@^20', '--prefer-offline', '--no-audit', '--no-fund'], project);

    // The user's project is a git repository of its own: its commit is the experiment's provenance.
    const git = async (...args: string[]) => (await run('git', ['-c', 'user.name=user', '-c', 'user.email=user@example.com', ...args], project)).trim();
    await git('init', '-q');
    await git('add', '.');
    await git('commit', '-q', '-m', 'my experiments');
    projectSha = await git('rev-parse', 'HEAD');
  }, 300_000);

  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const readRun = (folder: string): RunJson => JSON.parse(readFileSync(join(project, folder, 'run.json'), 'utf8')) as RunJson;

  // The README's sentence on install size, against this install (less @types/node, which the test adds).
  // Dependencies move within their ranges, so a margin: the figures were 85 packages and 56 MB long after they
  // had grown to 97 and 91.
  it("matches the README's install size: packages, megabytes on disk, and the openai SDK's share", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const said = /adds (\d+) packages, (\d+) MB on disk[\s\S]*?the openai SDK \((\d+) MB/.exec(readme);
    expect(said, 'the README states the install size and the openai SDK share').not.toBeNull();
    const [packages, megabytes, openai] = [Number(said![1]), Number(said![2]), Number(said![3])];
    const lock = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const added = ['node_modules/@types/node', 'node_modules/undici-types'];
    const installed = Object.keys(lock.packages).filter((path) => path !== '' && !added.includes(path)).length;
    expect(Math.abs(installed - packages), `${installed} packages installed, the README says ${packages}`).toBeLessThanOrEqual(5);
    const kilobytes = async (...paths: string[]) => Number((await run('du', ['-sk', '-c', ...paths], project)).trim().split('\n').at(-1)!.split('\t')[0]);
    const onDisk = ((await kilobytes('node_modules')) - (await kilobytes(...added))) / 1024;
    expect(Math.abs(onDisk - megabytes) / megabytes, `${onDisk.toFixed(0)} MB on disk, the README says ${megabytes}`).toBeLessThan(0.2);
    const sdk = (await kilobytes('node_modules/openai')) / 1024;
    expect(Math.abs(sdk - openai) / openai, `the openai SDK takes ${sdk.toFixed(0)} MB, the README says ${openai}`).toBeLessThan(0.25);
  });

  it("imports from 'arcbench' in plain Node (.mjs)", async () => {
    expect(JSON.parse(await run(process.execPath, ['plain.mjs'], project))).toEqual({
      agent: true,
      errors: 'function',
      reference: 'function',
      queue: 'function',
    });
  });

  it.each(['nodenext', 'bundler'])('type-checks a TypeScript plugin with moduleResolution %s, strict, checking the libraries', async (resolution) => {
    expect(await run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], project)).toBe('');
  });

  it('runs a .ts plugin with npx arcbench run, and records the project as the experiment', async () => {
    await run('npx', ['arcbench', 'run', 'my.yaml', '--out', 'results/ts'], project);
    const report = readRun('results/ts');
    expect(report).toMatchObject({ status: 'completed', totals: { episodes: 2, errors: 0 } });
    expect(report.agents.map((agent) => agent.label)).toEqual(['typed', 'random']);
    // The report's page is bundled from the installed package's build, with its recordings inside.
    expect(readFileSync(join(project, 'results/ts/report.html'), 'utf8')).toContain('data-recording="recordings/');
    expect(report.provenance).toMatchObject({
      arcbench_version: version,
      arcbench_git: null,
      experiment_git: { folder: project, sha: projectSha, dirty: false },
    });
  });

  it('runs .js plugins where package.json says "type": "commonjs", written with export default and with module.exports', async () => {
    await run('npx', ['arcbench', 'run', 'cjs/my.yaml', '--out', 'results/cjs'], project);
    const report = readRun('results/cjs');
    expect(report).toMatchObject({ status: 'completed', totals: { episodes: 2, errors: 0 } });
    expect(report.agents.map((agent) => agent.label)).toEqual(['export-default', 'module-exports']);
  });

  it('writes a starter with npx arcbench init that runs as it is', async () => {
    const said = await run('npx', ['arcbench', 'init', 'starter'], project);
    expect(said).toMatch(/^next: npx arcbench run starter\/experiment\.yaml$/m);
    expect(readFileSync(join(project, 'starter', 'experiment.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/node_modules\/arcbench\/configs\/arcbench\.schema\.json\n/,
    );
    await run('npx', ['arcbench', 'run', 'starter/experiment.yaml', '--out', 'results/starter'], project);
    const report = readRun('results/starter');
    expect(report).toMatchObject({ status: 'completed', totals: { errors: 0 } });
    expect(report.agents.map((agent) => agent.label)).toEqual(['my-agent', 'random']);
  });

  it('runs a Python agent from the installed package (python/ ships beside dist/): init --python, then run', async () => {
    await run('npx', ['arcbench', 'init', '--python', 'py-starter'], project);
    await run('npx', ['arcbench', 'run', 'py-starter/experiment.yaml', '--out', 'results/py-starter'], project);
    const report = readRun('results/py-starter');
    expect(report).toMatchObject({ status: 'completed', totals: { errors: 0 } });
    expect(report.agents.map((agent) => agent.label)).toEqual(['myagent', 'random']);
  });
});
