// The cost estimate of a plan against what the same plan then spends: the llm agent against the fake
// model server, which counts tokens as providers roughly do (a token per 4 characters of what it was
// sent and what it answers). `plan --estimate` is within 25% of the spend, from the prompt model and
// from an earlier run's figures; a plan whose minimum is over its dollar budget is refused before a
// single call, with both figures, unless forced.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { episodeTokens } from '../src/analysis/costEstimate.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { resolvePlan } from '../src/runner/plan.ts';
import { estimatePlan } from '../src/runner/planEstimate.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { referenceTransport } from '../src/runner/targets.ts';
import { runArcbench } from './support/arcbenchProcess.ts';
import { startFakeAnthropicServer } from './support/fakeAnthropicServer.ts';
import { type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { startFakeResponsesServer } from './support/fakeResponsesServer.ts';
import { SECRET_KEY, type TempFolder, useFake, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
const responses = useFake(startFakeResponsesServer);
const anthropic = useFake(startFakeAnthropicServer);
const PRICING = { input: 3, cached_input: 0.75, output: 15 };
const RATIONALE = 'The player block sits left of the goal; moving it one cell at a time and watching what changes. '.repeat(3);

/** A fake server that bills like a provider: tokens are characters / 4 of the request and of the reply. */
function countingServer(): void {
  fake.server.setFallback((request: RecordedRequest, index) => {
    const sent = JSON.stringify({ messages: request.body.messages, tools: request.body.tools });
    const call = toolCall(index % 2 === 0 ? 'ACTION1' : 'ACTION2', { rationale: RATIONALE });
    return { toolCalls: [call], usage: { prompt_tokens: Math.ceil(sent.length / 4), completion_tokens: Math.ceil(JSON.stringify(call).length / 4) } };
  });
}

function writeExperiment(folder: TempFolder, name: string, budgets: Record<string, unknown>): string {
  const file = join(folder.path, `${name}.yaml`);
  const params = { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING };
  writeFileSync(file, stringify({ name, games: ['crat', 'keys'], agents: [{ use: 'llm', params }], episodes: 2, seed: 5, concurrency: 2, budgets }));
  return file;
}

async function estimateOf(file: string, from?: string) {
  const experiment = await loadExperiment(file);
  const transport = referenceTransport(experiment.config.seed);
  try {
    return estimatePlan(experiment, await resolvePlan(experiment, transport), from === undefined ? undefined : readRunFolder(from));
  } finally {
    await transport.close();
  }
}

const within = (estimate: number, actual: number, share: number) => Math.abs(estimate - actual) / actual <= share;

describe('the cost estimate of a plan', () => {
  it('is within 25% of what the plan then spends, from the prompt model and from the earlier run', async () => {
    countingServer();
    const folder = fake.newFolder();
    const file = writeExperiment(folder, 'estimated', { max_actions: 24 });
    const estimate = await estimateOf(file);
    const printed = await runArcbench(['plan', file, '--estimate'], folder.path);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`estimated cost of the plan: expected $${estimate.expected_usd!.toFixed(2)}`);

    const run = await runExperiment(await loadExperiment(file), { out: join(folder.path, 'run') });
    const spent = run.report.totals.usage;
    expect(spent.calls).toBeGreaterThan(0);
    expect(within(estimate.input_tokens, spent.input_tokens, 0.25), `estimated ${estimate.input_tokens} input tokens, spent ${spent.input_tokens}`).toBe(true);
    expect(within(estimate.expected_usd!, spent.cost_usd!, 0.25), `estimated $${estimate.expected_usd}, spent $${spent.cost_usd}`).toBe(true);
    expect(estimate.minimum_usd!).toBeLessThan(estimate.expected_usd!);

    const measured = await estimateOf(file, run.runDir);
    expect(measured.agents[0]!.basis).toBe('measured');
    expect(within(measured.expected_usd!, spent.cost_usd!, 0.25)).toBe(true);
    const fromCli = await runArcbench(['plan', file, '--estimate', '--from', run.runDir], folder.path);
    expect(fromCli.stdout).toContain('as measured in the earlier run');
  });

  it('refuses, before a single model call, a plan whose minimum is over budgets.max_run_cost_usd, and runs it with --force', async () => {
    countingServer();
    const folder = fake.newFolder();
    const file = writeExperiment(folder, 'over', { max_actions: 24, max_run_cost_usd: 0.01 });
    const estimate = await estimateOf(file);
    const refused = await runArcbench(['run', file, '--out', join(folder.path, 'refused')], folder.path);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`estimated to cost at least $${estimate.minimum_usd!.toFixed(2)}`);
    expect(refused.stderr).toContain('over budgets.max_run_cost_usd of $0.01');
    expect(fake.server.requests).toHaveLength(0);

    const forced = await runArcbench(['run', file, '--out', join(folder.path, 'forced'), '--force'], folder.path);
    expect(forced.stderr).toContain('estimated cost of the plan');
    expect(fake.server.requests.length).toBeGreaterThan(0);
    expect(forced.code).toBe(3);
  });

  it.each([
    ['responses', 'state: provider', { api: 'responses', state: 'provider' }],
    ['responses', 'state: stateless', { api: 'responses', state: 'stateless' }],
    ['anthropic', 'cache writes priced apart', { api: 'anthropic', pricing: { ...PRICING, cache_write: 3.75 } }],
  ] as const)('api %s (%s), batches of 3: within a quarter of the spend, its prompt cache priced as cached input', async (api, _what, params) => {
    const server = api === 'responses' ? responses : anthropic;
    // Batches of 3 without predictions: played whole, as the estimate assumes.
    server.server.setFallback((_request: unknown, index: number) => ({
      toolCalls: [0, 1, 2].map((i) => toolCall((index + i) % 2 === 0 ? 'ACTION1' : 'ACTION2', { rationale: RATIONALE })),
    }));
    const folder = server.newFolder();
    const file = join(folder.path, `${api}.yaml`);
    const agentParams = { model: 'fake-model', base_url: server.server.baseUrl, api_key: SECRET_KEY, pricing: PRICING, max_actions_per_turn: 3, ...params };
    writeFileSync(
      file,
      stringify({
        name: api,
        games: ['crat', 'keys'],
        agents: [{ use: 'llm', params: agentParams }],
        episodes: 2,
        seed: 5,
        concurrency: 2,
        budgets: { max_actions: 24 },
      }),
    );
    const estimate = await estimateOf(file);
    const spent = (await runExperiment(await loadExperiment(file), { out: join(folder.path, 'run') })).report.totals.usage;
    expect(spent.cached_input_tokens).toBeGreaterThan(0);
    expect(within(estimate.agents[0]!.calls, spent.calls, 0.25), `estimated ${estimate.agents[0]!.calls} calls, made ${spent.calls}`).toBe(true);
    expect(within(estimate.input_tokens, spent.input_tokens, 0.25), `estimated ${estimate.input_tokens} input tokens, spent ${spent.input_tokens}`).toBe(true);
    expect(within(estimate.expected_usd!, spent.cost_usd!, 0.25), `estimated $${estimate.expected_usd}, spent $${spent.cost_usd}`).toBe(true);
  });

  it('models budgets.max_actions_per_level: every episode ends at its first level budget, and the estimate is what they spend', async () => {
    countingServer();
    const folder = fake.newFolder();
    const file = writeExperiment(folder, 'levels', { max_actions: 80, max_actions_per_level: 1 });
    const estimate = await estimateOf(file);
    const run = await runExperiment(await loadExperiment(file), { out: join(folder.path, 'run') });
    expect(run.episodes.map((episode) => episode.outcome)).toEqual(run.episodes.map(() => 'level_budget'));
    const spent = run.report.totals.usage;
    expect(within(estimate.expected_usd!, spent.cost_usd!, 0.25), `estimated $${estimate.expected_usd}, spent $${spent.cost_usd}`).toBe(true);
    expect(estimate.minimum_usd!).toBeLessThanOrEqual(spent.cost_usd!);
    // From the earlier run's per-action figures too: its actions are capped the same way.
    const measured = await estimateOf(file, run.runDir);
    expect(within(measured.expected_usd!, spent.cost_usd!, 0.25), `measured estimate $${measured.expected_usd}, spent $${spent.cost_usd}`).toBe(true);
  });

  it('models budgets.max_cost_usd: no episode is estimated over it, so a plan the caps keep affordable is not refused', async () => {
    countingServer();
    const folder = fake.newFolder();
    const uncapped = await estimateOf(writeExperiment(folder, 'uncapped', { max_actions: 80 }));
    const perEpisode = 0.002;
    const episodes = 2 * 2;
    expect(uncapped.minimum_usd!).toBeGreaterThan(episodes * perEpisode);
    const file = writeExperiment(folder, 'capped', { max_actions: 80, max_cost_usd: perEpisode, max_run_cost_usd: episodes * perEpisode });
    const capped = await estimateOf(file);
    expect(capped.expected_usd!).toBeLessThanOrEqual(episodes * perEpisode);
    expect(capped.minimum_usd!).toBeLessThanOrEqual(episodes * perEpisode);
    expect(capped.input_tokens).toBeLessThan(uncapped.input_tokens);
    const run = await runArcbench(['run', file, '--out', join(folder.path, 'run')], folder.path);
    expect(run.stderr).not.toContain('over budgets.max_run_cost_usd');
    expect(fake.server.requests.length).toBeGreaterThan(0);
  });

  it('grows a call by a turn until the context size, then holds it there', () => {
    const shape = { fixedTokens: 100, turnTokens: 50, contextTokens: 300, outputTokens: 10, actionsPerCall: 1 };
    // Calls: 150, 200, 250, 300, 300.
    expect(episodeTokens(shape, 5)).toEqual({ calls: 5, input: 1200, repeated: 1200 - 150 - 4 * 50, output: 50 });
    expect(episodeTokens({ ...shape, actionsPerCall: 2 }, 5).calls).toBe(3);
  });
});
