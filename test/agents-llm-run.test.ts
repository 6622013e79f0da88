// The llm agent through the real runner and reference service, its model a fake OpenAI-compatible
// server: it completes a level; tokens and dollars in episodes.jsonl, the table and run.json are what
// the server reported times the prices; each action's reasoning carries its step's usage; the key is
// sent to the server and written nowhere.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FakeUsage, type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const PRICING = { input: 2.5, cached_input: 1.25, output: 10 };
const dollars = (u: FakeUsage) =>
  ((u.prompt_tokens - (u.cached_tokens ?? 0)) * PRICING.input + (u.cached_tokens ?? 0) * PRICING.cached_input + u.completion_tokens * PRICING.output) / 1e6;

const fake = useFakeModelServer();

function readRecording(out: string, relative: string): Array<{ data: { action_input: { id: number; reasoning?: any } } }> {
  const raw = readFileSync(join(out, relative));
  const text = relative.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('the llm agent in a run', () => {
  it('completes a level, and every count of tokens and dollars is what the server reported times the prices', async () => {
    const folder = fake.newFolder();
    const { gameId, calls } = levelOneToolCalls('crat');
    const usageOf = (step: number): FakeUsage => ({
      prompt_tokens: 1000 + 100 * step,
      completion_tokens: 40 + step,
      cached_tokens: 200 * step,
      reasoning_tokens: 7 * step,
    });
    const usages = calls.map((_, i) => usageOf(i));
    fake.server.script(...calls.map((call, i) => ({ toolCalls: [call], usage: usageOf(i) })));

    const run = await runLlmExperiment(folder, {
      name: 'level',
      games: [gameId],
      params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING },
      budgets: { max_actions: calls.length },
    });

    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(episode.levels_completed).toBe(1);
    expect(episode.outcome).toBe('budget');
    expect(fake.server.requests.length).toBe(calls.length);
    const expected = {
      input_tokens: usages.reduce((s, u) => s + u.prompt_tokens, 0),
      cached_input_tokens: usages.reduce((s, u) => s + (u.cached_tokens ?? 0), 0),
      reasoning_tokens: usages.reduce((s, u) => s + (u.reasoning_tokens ?? 0), 0),
      output_tokens: usages.reduce((s, u) => s + u.completion_tokens, 0),
      calls: calls.length,
      cached_calls: 0,
    };
    const cost = usages.reduce((s, u) => s + dollars(u), 0);
    expect(episode.usage).toMatchObject(expected);
    expect(episode.usage.cost_usd).toBeCloseTo(cost, 12);
    expect(episode.model_calls!.map((c) => [c.step, c.kind, c.input_tokens, c.cached])).toEqual(usages.map((u, i) => [i, 'action', u.prompt_tokens, false]));
    for (const usage of [run.runJson.agents[0].usage, run.runJson.agents[0].usage_by_game[gameId], run.runJson.totals.usage]) {
      expect(usage).toMatchObject(expected);
      expect(usage.cost_usd).toBeCloseTo(cost, 12);
    }
    const totalRow = run.tableMarkdown.split('\n').find((line) => line.startsWith('| llm | **total**'))!;
    expect(run.tableMarkdown).toMatch(/\| input tokens \| cached tokens \| output tokens \| cost \$ \|/);
    const thousands = (n: number) => n.toLocaleString('en-US');
    expect(totalRow).toContain(
      `**${thousands(expected.input_tokens)}** | **${thousands(expected.cached_input_tokens)}** | **${thousands(expected.output_tokens)}** | **${cost.toFixed(4)}** |`,
    );
    expect(totalRow).toMatch(/\*\*\d{1,3},\d{3}\*\*/);
    expect(run.table).toContain(cost.toFixed(4));

    // Each action went to the service with its step's usage and the model's rationale.
    const lines = readRecording(run.out, episode.recording!);
    const sent = lines.slice(1).map((line) => line.data.action_input.reasoning);
    expect(sent).toHaveLength(calls.length);
    sent.forEach((reasoning, i) => {
      expect(reasoning).toMatchObject({
        model: 'fake-model',
        input_tokens: usageOf(i).prompt_tokens,
        output_tokens: usageOf(i).completion_tokens,
        calls: 1,
        rationale: 'solver move',
      });
      expect(reasoning.cost_usd).toBeCloseTo(dollars(usageOf(i)), 9);
    });
  });

  it('shows the model the game, the actions it may take and what its last action did, and offers one tool per action', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION1')] }));
    const { gameId } = levelOneToolCalls('crat');
    await runLlmExperiment(folder, {
      name: 'prompt',
      games: [gameId],
      params: { model: 'm', base_url: fake.server.baseUrl, api_key: SECRET_KEY },
      budgets: { max_actions: 2 },
    });

    const first = fake.server.request(0);
    const second = fake.server.request(1);
    const turn = (request: RecordedRequest) => request.body.messages.at(-1).content as string;
    expect(turn(first)).toMatch(/^Game: Crate Yard \(crat-[0-9a-f]{8}\)\. Level 1 of 6; levels completed: 0\. State: NOT_FINISHED/);
    expect(turn(first)).toContain('Available actions: ACTION1, ACTION2, ACTION3, ACTION4, ACTION7, RESET.');
    expect(turn(first)).toContain('Last action: none yet');
    expect(turn(first)).toMatch(/Frame:\n64x64 grid, one hex digit per cell/);
    expect(turn(second)).toMatch(/Last action: ACTION1\. (Nothing changed on the grid|\d+ cells? changed)/);
    expect(first.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'ACTION1',
      'ACTION2',
      'ACTION3',
      'ACTION4',
      'ACTION7',
      'RESET',
      'write_notes',
    ]);
    expect(first.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    // The previous turn stays in the conversation: the user turn, the tool call, and its answer.
    expect(second.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
  });

  it('writes the key into no file of the run and no log', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')] }));
    const { gameId } = levelOneToolCalls('crat');
    await runLlmExperiment(folder, {
      name: 'secret',
      games: [gameId],
      params: { model: 'm', base_url: fake.server.baseUrl, api_key: SECRET_KEY, cache: true, context_tokens: 8_000, max_output_tokens: 256 },
      budgets: { max_actions: 3 },
    });
    const files = folder.files();
    expect(files.some((f) => f.file.endsWith('run.log'))).toBe(true);
    expect(files.some((f) => f.file.includes('.arcbench-cache'))).toBe(true);
    for (const { file, text } of files) {
      if (file.endsWith('.yaml')) continue; // the user's own experiment file, which they wrote it into
      expect(text.includes(SECRET_KEY), file).toBe(false);
    }
    const report = JSON.parse(readFileSync(join(folder.path, 'runs', 'secret', 'run.json'), 'utf8'));
    expect(report.agents[0].params.api_key).toBe('[redacted]');
    expect(report.config.agents[0].params.api_key).toBe('[redacted]');
    // Counts named like keys are not secrets: a reader needs them.
    expect(report.agents[0].params).toMatchObject({ context_tokens: 8_000, max_output_tokens: 256 });
    expect(report.config.agents[0].params).toMatchObject({ context_tokens: 8_000, max_output_tokens: 256 });
  });
});
