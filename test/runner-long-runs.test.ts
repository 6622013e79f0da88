/**
 * Long runs without surprises: budgets.first_action_seconds ends an episode whose agent has not sent
 * its first action in time (and only the first: later slow decisions are the episode's own business),
 * and `run` warns at the start when one decision of an agent can outlast the service's idle close.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import llmAgent from '../agents/llm.ts';
import randomAgent from '../agents/random.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { idleCloseWarnings } from '../src/runner/idleCloseWarning.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { tempDir } from './support/tempDir.ts';

const SLOW = join(import.meta.dirname, 'fixtures', 'slowStartAgent.ts');

describe('budgets.first_action_seconds', () => {
  it('ends as time the episode whose agent sends no first action in time, and no other', async () => {
    const dir = tempDir('first-action');
    writeFileSync(
      join(dir, 'slow.yaml'),
      [
        'name: slow',
        'games: [flod]',
        'agents:',
        `  - { use: ${JSON.stringify(SLOW)}, label: hangs, params: { first_ms: -1 } }`,
        `  - { use: ${JSON.stringify(SLOW)}, label: late, params: { first_ms: 1500 } }`,
        `  - { use: ${JSON.stringify(SLOW)}, label: prompt, params: { first_ms: 0, later_ms: 400 } }`,
        'budgets: { max_actions: 4, first_action_seconds: 0.8, episode_seconds: 20 }',
        'concurrency: 3',
        'recordings: false',
        '',
      ].join('\n'),
    );
    const { episodes } = await runExperiment(await loadExperiment(join(dir, 'slow.yaml')), { out: join(dir, 'out') });
    const byAgent = Object.fromEntries(episodes.map((e) => [e.agent, e]));
    for (const label of ['hangs', 'late']) {
      expect(byAgent[label]).toMatchObject({ outcome: 'time', actions: 0 });
      expect(byAgent[label]!.stop_reason).toMatch(/sent no first action within budgets\.first_action_seconds \(0\.8 s\)/);
      expect(byAgent[label]!.cut_by_run_stop).toBeUndefined();
    }
    // Its later decisions take half the first-action time each, four in all: longer than it, and fine.
    expect(byAgent.prompt).toMatchObject({ outcome: 'budget', actions: 4 });
  }, 30_000);
});

describe('idle close warning', () => {
  const url = { url: 'https://arc.example', api_key: 'k' } as const;
  // The llm agent's own definition, with params as the runner holds them: parsed, defaults applied.
  const llm = (params: Record<string, unknown>) => [
    { label: 'llm', definition: llmAgent, params: llmAgent.params.parse({ model: 'm', api_key: 'k', ...params }) },
  ];

  it('warns for an agent whose one decision can outlast 15 idle minutes while no other episode of its card plays', () => {
    const [warning] = idleCloseWarnings(
      llm({ request_timeout_seconds: 300, max_retries: 4 }),
      { target: url, concurrency: 1, budgets: { max_actions: 80 } },
      () => 10,
    );
    expect(warning).toMatch(/agent "llm": one decision can take up to 25 minutes .* the 15 minutes without an action/);
  });

  it('is quiet when the decision fits, the episode time caps it, other episodes keep the card alive, or the service is in-process', () => {
    const budgets = { max_actions: 80 };
    expect(idleCloseWarnings(llm({ request_timeout_seconds: 120, max_retries: 4 }), { target: url, concurrency: 1, budgets }, () => 10)).toEqual([]);
    expect(
      idleCloseWarnings(llm({ request_timeout_seconds: 600 }), { target: url, concurrency: 1, budgets: { ...budgets, episode_seconds: 600 } }, () => 10),
    ).toEqual([]);
    expect(idleCloseWarnings(llm({ request_timeout_seconds: 600, max_retries: 4 }), { target: url, concurrency: 4, budgets }, () => 10)).toEqual([]);
    expect(idleCloseWarnings(llm({ request_timeout_seconds: 600, max_retries: 4 }), { target: 'reference', concurrency: 1, budgets }, () => 10)).toEqual([]);
    expect(idleCloseWarnings([{ label: 'random', definition: randomAgent, params: {} }], { target: url, concurrency: 1, budgets }, () => 10)).toEqual([]);
    // Four at once, but only one episode of this agent to play: nothing else keeps its card alive.
    expect(idleCloseWarnings(llm({ request_timeout_seconds: 600, max_retries: 4 }), { target: url, concurrency: 4, budgets }, () => 1)).toHaveLength(1);
  });
});
