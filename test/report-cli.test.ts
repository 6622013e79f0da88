// report.html from the command line: `arcbench run` writes it into the run folder, `arcbench report`
// writes it again; a report that cannot be written is logged and never costs the run its results.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCBENCH_BIN, runArcbench } from './support/arcbenchProcess.ts';
import { pageEntry } from '../src/report/pageBundle.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'arcbench-report-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function arcbench(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [ARCBENCH_BIN, ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('report.html from the command line', () => {
  it('arcbench run writes report.html; arcbench report writes it again, also elsewhere', async () => {
    writeFileSync(join(dir, 'exp.yaml'), 'name: cli\ngames: [slid]\nagents: [{ use: random }]\nbudgets: { max_actions: 10 }\n');
    const out = join(dir, 'run');
    const run = await arcbench('run', join(dir, 'exp.yaml'), '--out', out);
    expect(run.code).toBe(0);
    const page = readFileSync(join(out, 'report.html'), 'utf8');
    expect(page).toContain('<title>cli · arcbench report</title>');
    expect(page).toContain('data-recording="recordings/slid-');
    expect(readFileSync(join(out, 'run.log'), 'utf8')).toContain('"file":"report.html","msg":"result file written"');

    rmSync(join(out, 'report.html'));
    const again = await arcbench('report', out);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/report\.html: [\d.]+ MB, 1 of 1 recordings embedded/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const elsewhere = await arcbench('report', out, '--out', join(dir, 'copy.html'));
    expect(elsewhere.code).toBe(0);
    expect(existsSync(join(dir, 'copy.html'))).toBe(true);
  });

  it("report.html holds no absolute local path: the config, the run folder and argv are relative to the experiment's folder", async () => {
    const here = join(dir, 'relative');
    mkdirSync(here);
    writeFileSync(join(here, 'exp.yaml'), 'name: rel\ngames: [slid]\nagents: [{ use: random }]\nbudgets: { max_actions: 5 }\n');
    const run = await runArcbench(['run', join(here, 'exp.yaml'), '--out', join(here, 'out')], here);
    expect(run.code, run.stderr).toBe(0);
    const page = readFileSync(join(here, 'out', 'report.html'), 'utf8');
    for (const local of [here, realpathSync(here), tmpdir()]) expect(page).not.toContain(local);
    expect(page).toContain('"config_file":"exp.yaml"');
    expect(page).toContain('"folder":"out"');
  });

  it('arcbench report exits 2 with a sentence for a folder that is not a run folder', async () => {
    mkdirSync(join(dir, 'empty'));
    const empty = await arcbench('report', join(dir, 'empty'));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('is not a run folder: it has neither run.json nor episodes.jsonl');
    const missing = await arcbench('report', join(dir, 'missing'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing: no such folder');
    expect((await arcbench('report')).code).toBe(2);
  });

  it('an output path in a folder that does not exist: one sentence and exit 2, for report --out, schema --out and compare --html', async () => {
    // The run folder of the first test.
    const out = join(dir, 'run');
    const nowhere = join(dir, 'no-such-folder', 'page.html');
    for (const [flag, args] of [
      ['--out', ['report', out, '--out', nowhere]],
      ['--out', ['schema', '--out', nowhere]],
      ['--html', ['compare', out, out, '--html', nowhere]],
    ] as const) {
      const result = await arcbench(...args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        `arcbench ${args[0]}: ${flag} ${nowhere}: the folder ${join(dir, 'no-such-folder')} does not exist; create it first or choose another path`,
      );
      expect(existsSync(nowhere)).toBe(false);
    }
  });

  it("finds the page's front end in its sources and in a build under dist/, as the package ships it", () => {
    const sources = join(ROOT, 'src', 'report');
    expect(pageEntry(sources)).toBe(join(sources, 'page', 'main.ts'));
    const built = join(dir, 'dist', 'src', 'report');
    mkdirSync(join(built, 'page'), { recursive: true });
    writeFileSync(join(built, 'page', 'main.js'), '');
    expect(pageEntry(built)).toBe(join(built, 'page', 'main.js'));
    expect(() => pageEntry(join(dir, 'elsewhere'))).toThrow(/the report's front end \(report\/page\/main\.ts or \.js\) is missing/);
  });

  it('a result file that fails is logged in run.log, and the run keeps its results', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'name: broken\ngames: [slid]\nagents: [{ use: random }]\nbudgets: { max_actions: 5 }\n');
    const result = await runExperiment(await loadExperiment(join(dir, 'broken.yaml')), {
      out: join(dir, 'broken'),
      extraResults: [{ name: 'report.html', write: () => Promise.reject(new Error('disk full')) }],
    });
    expect(result.report.status).toBe('completed');
    expect(existsSync(join(dir, 'broken', 'run.json'))).toBe(true);
    const log = readFileSync(join(dir, 'broken', 'run.log'), 'utf8');
    expect(log).toContain('"file":"report.html","error":"disk full","msg":"writing a result file failed; the run and its results stand"');
  });
});
