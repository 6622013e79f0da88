/**
 * Agents describe themselves: the runner's cost estimate and idle-close warning come from what an agent
 * says of itself (a TypeScript plugin's describe, an agent process's hello, a Python class's
 * arcbench_describe), and an agent that may call a model and says nothing is named, never counted free.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildHarnessCard } from '../src/runner/harnessCard.ts';
import { defineAgent } from '../src/agent/defineAgent.ts';
import { type CallShape, estimatePlanCost } from '../src/analysis/costEstimate.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { type Experiment, loadExperiment } from '../src/runner/config/loader.ts';
import { idleCloseWarnings } from '../src/runner/idleCloseWarning.ts';
import { resolvePlan } from '../src/runner/plan.ts';
import { estimateLines, estimatePlan } from '../src/runner/planEstimate.ts';
import { referenceTransport } from '../src/runner/targets.ts';
import { runArcbench } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

const HOSTED = { url: 'https://arc.example', api_key: 'k' } as const;
const PRICING = { input: 2, output: 10 };

const PLUGIN = `
import { action, defineAgent, z } from 'arcbench';
export default defineAgent({
  name: 'described',
  params: z.strictObject({ timeout: z.number().default(400) }),
  create: () => ({ act: () => action(1) }),
  describe: (p) => ({
    callsModel: true,
    costEstimate: ({ actions }) => ({
      shape: { fixedTokens: 1000, turnTokens: 100 * actions, contextTokens: 8000, outputTokens: 50, actionsPerCall: 1 },
      pricing: ${JSON.stringify(PRICING)},
    }),
    longestDecisionSeconds: p.timeout * 3,
    shortenDecisionHint: 'lower params.timeout',
  }),
});
`;

/** A program speaking the agent protocol that only answers hello, with `describe` when given. */
function protocolAgent(dir: string, name: string, describe?: unknown): string {
  const hello = JSON.stringify({ type: 'hello', protocol: 'arcbench.agent/1', name, ...(describe === undefined ? {} : { describe }) });
  const file = join(dir, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\nread hello\nprintf '%s\\n' '${hello}' >&3\n`);
  chmodSync(file, 0o755);
  return `./${name}.sh`;
}

async function experimentWith(dir: string, use: string): Promise<Experiment> {
  writeFileSync(
    join(dir, 'exp.yaml'),
    `name: described\ngames: [crat, keys]\nagents: [{ use: ${JSON.stringify(use)} }]\nepisodes: 2\nbudgets: { max_actions: 30 }\n`,
  );
  return loadExperiment(join(dir, 'exp.yaml'));
}

async function estimateOf(experiment: Experiment) {
  const transport = referenceTransport(experiment.config.seed);
  try {
    return estimatePlan(experiment, await resolvePlan(experiment, transport));
  } finally {
    await transport.close();
  }
}

/** What the prompt model gives for a shape on each of the two games, two episodes each. */
function expectedFor(shapeOf: (actions: number) => CallShape) {
  const actionsOf = (id: string) => gameCatalog().find((game) => game.info.id.startsWith(id))!.info.availableActions.length;
  return estimatePlanCost(['crat', 'keys'].map((id) => ({ label: 'x', episodes: 2, actionsPerEpisode: 30, pricing: PRICING, shape: shapeOf(actionsOf(id)) })));
}

describe('an agent that describes itself', () => {
  it('a TypeScript plugin: its estimate on each game and its own hint when a decision can outlast the idle close', async () => {
    const dir = tempDir('describe-plugin');
    writeFileSync(join(dir, 'described.ts'), PLUGIN);
    const experiment = await experimentWith(dir, './described.ts');
    const estimate = await estimateOf(experiment);
    const expected = expectedFor((actions) => ({ fixedTokens: 1000, turnTokens: 100 * actions, contextTokens: 8000, outputTokens: 50, actionsPerCall: 1 }));
    expect(estimate).toMatchObject({ input_tokens: expected.input_tokens, expected_usd: expected.expected_usd, not_estimated: [] });
    expect(estimate.agents[0]).toMatchObject({ label: 'described', basis: 'model' });

    const config = { target: HOSTED, concurrency: 1, budgets: { max_actions: 30 } };
    const [warning] = idleCloseWarnings(experiment.agents, config, () => 1);
    expect(warning).toMatch(/agent "described": one decision can take up to 20 minutes .*; lower params\.timeout, set budgets\.episode_seconds/);
  });

  it('a protocol agent: what its hello declares', async () => {
    const dir = tempDir('describe-hello');
    const call = { fixed_tokens: 500, turn_tokens: 1500, context_tokens: 6000, output_tokens: 80, cached_share: 0, pricing: PRICING };
    const declared = { calls_model: true, cost_per_call: call, longest_decision_seconds: 1800, shorten_decision_hint: 'lower TIMEOUT in the script' };
    const experiment = await experimentWith(dir, protocolAgent(dir, 'declared', declared));
    const estimate = await estimateOf(experiment);
    const expected = expectedFor(() => ({ fixedTokens: 500, turnTokens: 1500, contextTokens: 6000, outputTokens: 80, actionsPerCall: 1, cachedShare: 0 }));
    expect(estimate).toMatchObject({ input_tokens: expected.input_tokens, expected_usd: expected.expected_usd, minimum_usd: expected.minimum_usd });
    const [warning] = idleCloseWarnings(experiment.agents, { target: HOSTED, concurrency: 1, budgets: { max_actions: 30 } }, () => 1);
    expect(warning).toMatch(/agent "declared": one decision can take up to 30 minutes .*; lower TIMEOUT in the script, /);
  });

  it('a protocol agent: the harness its hello declares is on the run’s harness card, its prompt as a hash, its file’s hash as its version', async () => {
    const dir = tempDir('describe-harness');
    const declared = { harness: { facts: { model: 'local-7b', state_mode: 'harness', batch_size: 3 }, prompts: { system: 'Play well.' } } };
    const experiment = await experimentWith(dir, protocolAgent(dir, 'carded', declared));
    const card = buildHarnessCard(experiment, '9.9.9');
    const script = readFileSync(join(dir, 'carded.sh'));
    const hash = (content: string | Buffer) => createHash('sha256').update(content).digest('hex').slice(0, 16);
    expect(card.agents[0]!.facts).toMatchObject({
      agent: 'carded',
      kind: 'executable',
      version: `sha256:${hash(script)} (carded.sh)`,
      model: 'local-7b',
      state_mode: 'harness',
      batch_size: 3,
      'prompt.system': `sha256:${hash('Play well.')}`,
    });
    expect(JSON.stringify(card)).not.toContain('Play well.');
    await expect(experimentWith(dir, protocolAgent(dir, 'badcard', { harness: { facts: { model: ['a'] } } }))).rejects.toThrow(
      /describe\.harness\.facts\.model/,
    );
  });

  it('a protocol agent that declares nothing: plan --estimate says it cannot be estimated, and no warning is made up', async () => {
    const dir = tempDir('describe-silent');
    const use = protocolAgent(dir, 'silent');
    const experiment = await experimentWith(dir, use);
    expect((await estimateOf(experiment)).not_estimated).toEqual(['silent']);
    expect(idleCloseWarnings(experiment.agents, { target: HOSTED, concurrency: 1, budgets: { max_actions: 30 } }, () => 1)).toEqual([]);
    const printed = await runArcbench(['plan', 'exp.yaml', '--estimate'], dir);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('silent: cannot be estimated: it may call a model and does not say how');
  });

  it('a protocol agent that says it calls no model costs nothing; a mistyped declaration is a load error naming the field', async () => {
    const dir = tempDir('describe-none');
    const estimate = await estimateOf(await experimentWith(dir, protocolAgent(dir, 'free', { calls_model: false })));
    expect(estimate).toMatchObject({ not_estimated: [], expected_usd: 0 });
    expect(estimateLines(estimate)).toEqual(['estimated cost: no agent of this plan calls a model']);
    await expect(experimentWith(dir, protocolAgent(dir, 'typo', { calls_model: 'yes' }))).rejects.toThrow(/describe\.calls_model/);
  });

  it("a Python agent: its class's arcbench_describe, sent in the hello", async () => {
    const dir = tempDir('describe-python');
    writeFileSync(
      join(dir, 'thinker.py'),
      [
        'from agents.agent import Agent',
        'from arcengine import GameAction',
        '',
        'class Thinker(Agent):',
        '    arcbench_describe = {"calls_model": True, "longest_decision_seconds": 3600, "shorten_decision_hint": "lower Thinker.TIMEOUT",',
        '                         "cost_per_call": {"fixed_tokens": 500, "turn_tokens": 1500, "context_tokens": 6000, "output_tokens": 80},',
        '                         "harness": {"facts": {"model": "thinker-1", "batch_size": 1}, "prompts": {"system": "Think first."}}}',
        '    def is_done(self, frames, latest_frame):',
        '        return False',
        '    def choose_action(self, frames, latest_frame):',
        '        return GameAction.ACTION1',
        '',
      ].join('\n'),
    );
    const experiment = await experimentWith(dir, './thinker.py');
    const estimate = await estimateOf(experiment);
    expect(estimate.agents[0]).toMatchObject({ label: 'thinker', basis: 'model', expected_usd: null });
    expect(estimate.input_tokens).toBe(
      expectedFor(() => ({ fixedTokens: 500, turnTokens: 1500, contextTokens: 6000, outputTokens: 80, actionsPerCall: 1 })).input_tokens,
    );
    const [warning] = idleCloseWarnings(experiment.agents, { target: HOSTED, concurrency: 1, budgets: { max_actions: 30 } }, () => 1);
    expect(warning).toContain('up to 60 minutes');
    expect(warning).toContain('lower Thinker.TIMEOUT');
    expect(buildHarnessCard(experiment, '9.9.9').agents[0]!.facts).toMatchObject({
      kind: 'python',
      model: 'thinker-1',
      batch_size: 1,
      'prompt.system': expect.stringMatching(/^sha256:/),
    });
  });

  it('defineAgent refuses a describe that is not a function, saying what it takes', () => {
    const create = () => ({ act: () => ({ stop: true as const }) });
    expect(() => defineAgent({ name: 'x', create, describe: { callsModel: false } as never })).toThrow(/describe must be a function of the params/);
  });
});
