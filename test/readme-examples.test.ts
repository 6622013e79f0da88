// The README's code, and the guides' in docs/, is what newcomers copy first: its TypeScript blocks must
// run as written. Each block is looked up by a marker in the page that shows it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { startFakeModelServer } from './support/fakeModelServer.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const blockWith = (page: string, marker: string) => {
  const text = readFileSync(join(root, page), 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes(marker));
  if (block === undefined) throw new Error(`${page} has no ts block with ${marker}`);
  return block;
};

describe('README and docs examples', () => {
  it('the ten-line agent loads as a plugin from any folder and plays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arcbench-readme-'));
    try {
      writeFileSync(join(dir, 'clicker.ts'), blockWith('README.md', 'defineAgent'));
      writeFileSync(
        join(dir, 'exp.yaml'),
        'name: readme\ngames: [lamp]\nagents:\n  - use: ./clicker.ts\n    params: { x: 10 }\nbudgets: { max_actions: 60 }\nrecordings: false\n',
      );
      const result = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out') });
      expect(result.report.status).toBe('completed');
      const [episode] = parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8'));
      // The agent stops itself after `limit` (50) steps, within the 60-action budget.
      expect(episode).toMatchObject({ agent: 'clicker', outcome: 'agent_stop', stop_reason: 'enough' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the LLM agent on the usage API plays against an OpenAI-compatible server, its usage and cost kept', async () => {
    const server = await startFakeModelServer({ fallback: () => ({ text: 'I pick 4.', usage: { prompt_tokens: 2_000, completion_tokens: 5 } }) });
    // Inside the package, so the plugin's `import OpenAI from 'openai'` resolves as in a user's project.
    const file = join(root, 'test', `.readme-llm-${process.pid}.ts`);
    const dir = mkdtempSync(join(tmpdir(), 'arcbench-readme-'));
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = 'sk-readme-example';
    process.env.OPENAI_BASE_URL = server.baseUrl;
    try {
      writeFileSync(file, blockWith('docs/llm-agents.md', 'reportUsage('));
      writeFileSync(
        join(dir, 'exp.yaml'),
        `name: readme-llm\ngames: [crat]\nagents:\n  - use: ${file}\n    params: { model: m, pricing: { input: 1, output: 2 } }\nbudgets: { max_actions: 3 }\n`,
      );
      const result = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out') });
      const [episode] = parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8'));
      expect(episode).toMatchObject({ outcome: 'budget', actions: 3, usage: { calls: 3, input_tokens: 6_000, output_tokens: 15 } });
      expect(result.report.totals.usage.cost_usd).toBeCloseTo((6_000 + 30) / 1e6, 12);
      expect(server.request(0).body.messages[0].content).toMatch(/^A 64x64 game grid, one hex digit per cell:\n[0-9a-f]{64}\n/);
    } finally {
      process.env.OPENAI_API_KEY = saved.key;
      process.env.OPENAI_BASE_URL = saved.url;
      if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
      if (saved.url === undefined) delete process.env.OPENAI_BASE_URL;
      rmSync(file, { force: true });
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });

  it('the library example runs against the in-process service', () => {
    // Inside the package, so 'arcbench/reference' resolves through package.json exports.
    const file = join(root, 'test', `.readme-library-${process.pid}.ts`);
    writeFileSync(file, blockWith('docs/service.md', 'arcbench/reference'));
    try {
      const run = spawnSync(process.execPath, [join(root, 'bin', 'run-ts.js'), file], { encoding: 'utf8', timeout: 30_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^NOT_FINISHED Uint8Array\(4096\)/);
      expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^\d+(\.\d+)?$/);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
