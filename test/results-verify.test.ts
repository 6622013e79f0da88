// `arcbench verify` on a real llm run against the fake model server: the untouched folder agrees (exit
// 0); an edited recording, score, usage figure or file is each caught with a sentence naming it (exit 1).
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRunFolder } from '../src/runner/results/verifyRun.ts';
import { runArcbench } from './support/arcbenchProcess.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { runLlmExperiment, SECRET_KEY, TempFolder, useFakeModelServer } from './support/llmRun.ts';
import { tempDir } from './support/tempDir.ts';

const fake = useFakeModelServer();
let folder: TempFolder;
let original: string;

// One run for the whole file (each test spoils a copy of it), removed when the file is done.
beforeAll(async () => {
  folder = new TempFolder();
  fake.server.setFallback((_, index) => ({
    toolCalls: [toolCall(index % 2 === 0 ? 'ACTION1' : 'ACTION4', { rationale: 'try' })],
    usage: { prompt_tokens: 900 + index, completion_tokens: 30, cached_tokens: 100, reasoning_tokens: 5 },
  }));
  const run = await runLlmExperiment(folder, {
    name: 'verified',
    games: ['crat'],
    episodes: 2,
    params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: { input: 2, output: 8 } },
    budgets: { max_actions: 6 },
  });
  original = run.out;
});
afterAll(() => folder.remove());

/** A copy of the run folder to spoil. */
function copyOfRun(): string {
  const copy = join(tempDir('verify'), 'run');
  cpSync(original, copy, { recursive: true });
  return copy;
}

function editEpisodes(dir: string, edit: (episode: any) => void): void {
  const path = join(dir, 'episodes.jsonl');
  const lines = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  edit(firstOf(lines, 'episode'));
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

describe('arcbench verify', () => {
  it('finds nothing to say of an untouched run, transcripts and manifest included, and exits 0', async () => {
    const result = await verifyRunFolder(original);
    expect(result.problems).toEqual([]);
    expect(result.checked).toMatchObject({ episodes: 2, recordings: 2, transcripts: 2 });
    expect(result.checked.files).toBeGreaterThanOrEqual(8);
    const manifest = JSON.parse(readFileSync(join(original, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((file: { path: string }) => file.path)).toEqual(expect.arrayContaining(['run.json', 'episodes.jsonl', 'run.log', 'table.md']));
    expect(manifest.arcbench_version).toMatch(/^\d+\.\d+\.\d+/);
    const cli = await runArcbench(['verify', original], folder.path);
    expect(cli.stdout).toContain('everything agrees');
    expect(cli.code).toBe(0);
    // A folder named with a trailing slash, as shells complete it, is the same folder.
    expect((await verifyRunFolder(`${original}/`)).problems).toEqual([]);
  });

  it('catches a recording whose answer was edited: its runs no longer match episodes.jsonl', async () => {
    const dir = copyOfRun();
    const recordings = join(dir, 'recordings');
    const name = firstOf(readdirSync(recordings), 'recording');
    const lines = gunzipSync(readFileSync(join(recordings, name)))
      .toString('utf8')
      .trim()
      .split('\n');
    const last = JSON.parse(lines.pop()!);
    last.data.levels_completed += 1;
    lines.push(JSON.stringify(last));
    writeFileSync(join(recordings, name), gzipSync(`${lines.join('\n')}\n`));
    const { problems } = await verifyRunFolder(dir);
    const levels = problems.map((p) => /run 1 levels_completed (\d+) in episodes\.jsonl, (\d+) in its recording$/.exec(p)).find(Boolean);
    expect(levels && Number(levels[2]) - Number(levels[1])).toBe(1);
    expect(problems.some((p) => p.startsWith(`recordings/${name}: changed since manifest.json`))).toBe(true);
  });

  it('catches an edited score: the service scoring code gives another', async () => {
    const dir = copyOfRun();
    editEpisodes(dir, (episode) => {
      episode.score = 42;
    });
    const { problems } = await verifyRunFolder(dir);
    expect(problems).toContainEqual(
      expect.stringMatching(/^llm\/crat-[0-9a-f]+\/0: score 42 in episodes\.jsonl, [\d.]+ recomputed by the service's scoring code$/),
    );
  });

  it('catches an edited usage figure against the model calls and the transcript', async () => {
    const dir = copyOfRun();
    editEpisodes(dir, (episode) => {
      episode.usage.input_tokens -= 1000;
    });
    const { problems } = await verifyRunFolder(dir);
    expect(problems).toContainEqual(expect.stringMatching(/0 usage \(episodes\.jsonl\) against its transcript: input_tokens \d+, recomputed \d+/));
    expect(problems).toContainEqual(expect.stringMatching(/0 usage \(episodes\.jsonl\) against its model calls: input_tokens/));
    expect(problems).toContainEqual(expect.stringMatching(/^llm: usage in run\.json against episodes\.jsonl: input_tokens/));
  });

  it('catches an edited file, a removed one and an added one against the manifest, and exits 1', async () => {
    const dir = copyOfRun();
    writeFileSync(join(dir, 'table.md'), `${readFileSync(join(dir, 'table.md'), 'utf8')}\nbest agent ever\n`);
    writeFileSync(join(dir, 'extra.txt'), 'added later\n');
    rmSync(join(dir, 'junit.xml'));
    const { problems } = await verifyRunFolder(dir);
    expect(problems).toEqual([
      'junit.xml: listed in manifest.json but missing',
      expect.stringMatching(/^table\.md: changed since manifest\.json was written \(\d+ bytes then, \d+ now; SHA-256 differs\)$/),
      'extra.txt: not listed in manifest.json (added after the run ended)',
    ]);
    const cli = await runArcbench(['verify', dir], folder.path);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('differs: table.md: changed since manifest.json');
  });

  it('a resume writes the manifest again at its end: the finished folder verifies, recordings included', async () => {
    const dir = tempDir('verify-resume');
    const body = (runSeconds: string) =>
      `name: resumed\ngames: all\nagents: [{ use: random }]\nepisodes: 20\nbudgets: { max_actions: 150${runSeconds} }\nconcurrency: 2\n`;
    writeFileSync(join(dir, 'exp.yaml'), body(', run_seconds: 0.3'));
    const out = join(dir, 'run');
    const partial = await runArcbench(['run', 'exp.yaml', '--out', out], dir);
    expect(partial.code, partial.stderr).toBe(3);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).status).toBe('partial');
    expect((await verifyRunFolder(out)).problems).toEqual([]);
    writeFileSync(join(dir, 'exp.yaml'), body(''));
    const resumed = await runArcbench(['resume', out], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).status).toBe('completed');
    const verified = await verifyRunFolder(out);
    expect(verified.problems).toEqual([]);
    expect(verified.checked.recordings).toBe(verified.checked.episodes);
  }, 120_000);

  it('arcbench report and export --out into the folder list what they wrote: verify still passes, and still names an edit made before', async () => {
    const dir = copyOfRun();
    const report = await runArcbench(['report', dir], folder.path);
    expect(report.code, report.stderr).toBe(0);
    const exported = await runArcbench(['export', dir, '--format', 'messages', '--out', join(dir, 'messages.jsonl')], folder.path);
    expect(exported.code, exported.stderr).toBe(0);
    expect((await verifyRunFolder(dir)).problems).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((file: { path: string }) => file.path)).toContain('messages.jsonl');

    writeFileSync(join(dir, 'table.md'), 'edited\n');
    expect((await runArcbench(['report', dir], folder.path)).code).toBe(0);
    expect((await verifyRunFolder(dir)).problems).toEqual([expect.stringContaining('table.md: changed since manifest.json was written')]);
  });
});
