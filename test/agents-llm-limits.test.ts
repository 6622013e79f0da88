// What bounds an llm run: a dollar budget ends an episode and a run; a model that never answers is cut
// by the episode deadline and by Ctrl-C; the response cache replays a run without a call to the fake.server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { firstOf, itemAt } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const crat = levelOneToolCalls('crat').gameId;
/** Every call: 1,000 input and 100 output tokens at $8 and $20 per million: one cent exactly. */
const CENT_A_CALL = { usage: { prompt_tokens: 1_000, completion_tokens: 100 } };
const PRICING = { input: 8, output: 20 };

const fake = useFakeModelServer();

const llmParams = (extra: Record<string, unknown> = {}) => ({
  model: 'fake-model',
  base_url: fake.server.baseUrl,
  api_key: SECRET_KEY,
  pricing: PRICING,
  ...extra,
});

describe('dollar budgets', () => {
  it('ends an episode with outcome cost once it has spent max_cost_usd', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], ...CENT_A_CALL }));
    const run = await runLlmExperiment(folder, { name: 'episode-cost', games: [crat], params: llmParams(), budgets: { max_actions: 50, max_cost_usd: 0.025 } });
    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(episode.outcome).toBe('cost');
    // Three calls (3 cents) pass the budget of 2.5; the action the third call paid for was still played.
    expect(episode.actions).toBe(3);
    expect(episode.usage.cost_usd).toBeCloseTo(0.03, 12);
    expect(fake.server.requests).toHaveLength(3);
    expect(run.report.status).toBe('completed');
  });

  it('stops scheduling once the run has spent max_run_cost_usd, lets the episode in flight end, closes the cards: partial', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')], ...CENT_A_CALL }));
    const run = await runLlmExperiment(
      folder,
      {
        name: 'run-cost',
        games: [crat],
        episodes: 4,
        params: llmParams(),
        budgets: { max_actions: 2, max_run_cost_usd: 0.03 },
      },
      // Its estimate is over the budget on purpose (this test is of the budget stopping a run): forced.
      { force: true },
    );
    // Episode 1 spends 2 cents; episode 2's first call reaches 3: it plays on to its own end, no third starts.
    expect(run.episodesFromFile.map((e) => [e.episode, e.outcome, e.actions])).toEqual([
      [0, 'budget', 2],
      [1, 'budget', 2],
    ]);
    expect(run.report.status).toBe('partial');
    expect(run.report.totals.skipped_episodes).toBe(2);
    expect(run.report.totals.usage.cost_usd).toBeCloseTo(0.04, 12);
    const agent = firstOf(run.report.agents, 'agent');
    expect(agent.close_error).toBeNull();
    expect(agent.scorecard?.published_at).toBeTruthy();
    expect(agent.scorecard?.total_actions).toBe(4);
  });
});

describe('a model that never answers', () => {
  it('is cut by the episode deadline; the usage of earlier steps is kept', async () => {
    const folder = fake.newFolder();
    fake.server.script({ toolCalls: [toolCall('ACTION2')], ...CENT_A_CALL }, { hang: true });
    const started = Date.now();
    const run = await runLlmExperiment(folder, { name: 'deadline', games: [crat], params: llmParams(), budgets: { max_actions: 10, episode_seconds: 1 } });
    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(episode.outcome).toBe('time');
    expect(episode.error).toBeUndefined();
    expect(episode.actions).toBe(1);
    expect(episode.usage.calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fake.server.requests).toHaveLength(2);
    // The request in flight was aborted, not left hanging.
    await expect.poll(() => fake.server.hanging()).toBe(0);
  });

  it('is cut by Ctrl-C: arcbench run exits 130, the card closed, the episode cancelled', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ hang: true }));
    const config = join(folder.path, 'hang.yaml');
    // No api_key in the file: the agent takes OPENAI_API_KEY, as a user's shell would give it.
    writeFileSync(
      config,
      stringify({ name: 'hang', games: [crat], agents: [{ use: 'llm', params: { model: 'fake-model', base_url: fake.server.baseUrl, pricing: PRICING } }] }),
    );
    const out = join(folder.path, 'out');
    const child = spawn(process.execPath, [ARCBENCH_BIN, 'run', config, '--out', out], {
      cwd: folder.path,
      env: { ...process.env, OPENAI_API_KEY: SECRET_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => fake.server.hanging(), { timeout: 30_000 }).toBe(1);
      child.kill('SIGINT');
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
      expect(code, stderr).toBe(130);
      const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
      expect(report.status).toBe('interrupted');
      expect(report.agents[0].scorecard.published_at).toBeTruthy();
      const [episode] = readFileSync(join(out, 'episodes.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      expect(episode.outcome).toBe('cancelled');
      await expect.poll(() => fake.server.hanging()).toBe(0);
      for (const { file, text } of folder.files()) expect(text.includes(SECRET_KEY), file).toBe(false);
      expect(fake.server.request(0).headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('the response cache', () => {
  it('replays a run without a single call to the server, the calls counted as cached at no cost', async () => {
    const folder = fake.newFolder();
    const { calls } = levelOneToolCalls('crat');
    let answered = 0;
    fake.server.setFallback(() => ({
      toolCalls: [itemAt(calls, answered++ % calls.length, 'solver call')],
      usage: { prompt_tokens: 900 + answered, completion_tokens: 30, cached_tokens: 100 },
    }));
    const experiment = { name: 'cached', games: [crat], episodes: 2, params: llmParams({ cache: true }), budgets: { max_actions: 4 } };
    const first = await runLlmExperiment(folder, experiment);
    const callsMade = fake.server.requests.length;
    expect(callsMade).toBe(8);
    expect(first.report.totals.usage).toMatchObject({ calls: 8, cached_calls: 0 });
    expect(existsSync(join(folder.path, '.arcbench-cache', 'llm'))).toBe(true);

    fake.server.setFallback(() => ({ status: 500, message: 'the replay must not call the server' }));
    const second = await runLlmExperiment(folder, { ...experiment, name: 'cached-again' });
    expect(fake.server.requests).toHaveLength(callsMade);
    const strip = (e: (typeof first.episodesFromFile)[number]) => [
      e.episode,
      e.outcome,
      e.actions,
      e.levels_completed,
      e.usage.input_tokens,
      e.usage.output_tokens,
    ];
    expect(second.episodesFromFile.map(strip)).toEqual(first.episodesFromFile.map(strip));
    expect(second.report.totals.usage).toMatchObject({ calls: 8, cached_calls: 8, cost_usd: 0, input_tokens: first.report.totals.usage.input_tokens });
    expect(firstOf(second.episodesFromFile, 'episode').model_calls!.every((c) => c.cached && c.cost_usd === 0)).toBe(true);

    // Compared, the two runs play alike and show what each cost.
    const compared = spawnSync(process.execPath, [ARCBENCH_BIN, 'compare', first.out, second.out, '--markdown'], { encoding: 'utf8' });
    expect(compared.status, compared.stderr).toBe(0);
    const total = compared.stdout.split('\n').find((line) => line.startsWith('| llm | **total**'))!;
    expect(compared.stdout).toMatch(/\| verdict \| baseline \$ \| candidate \$ \|/);
    expect(total).toContain('**identical**');
    // Beside them the change: every dollar saved by the cache, the same tokens.
    const cost = first.report.totals.usage.cost_usd!.toFixed(4);
    expect(total).toContain(`**${cost}** | **0.0000** | **−${cost}** | **+0** |`);
  });
});
