// The llm agent's harness card and a priced factorial: model × batch size arms played against the fake
// model server (real config loader, runner and reference service). The card holds the model, API,
// state mode, batch size, frame format, tools and the system prompt's hash, never the prompt's text or
// the key; the frontier keeps the cheaper model's arms when its scores are as good.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FactorialSummary } from '../src/analysis/factorialSummary.ts';
import { buildReportData } from '../src/report/reportData.ts';
import { readRunFolderSnapshot } from '../src/runfolder/folderSnapshot.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { toolCall } from './support/fakeModelServer.ts';
import { runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();

const PROMPT = 'You play a grid game. This sentence is the prompt text and must never reach the card.';
const CHEAP = { input: 1, output: 2 };
const DEAR = { input: 10, output: 20 };

describe('the llm agent on a harness card', () => {
  it('records its harness without the prompt text or key, and a frontier priced per arm', async () => {
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION1')] }));
    const run = await runLlmExperiment(fake.newFolder(), {
      name: 'priced',
      games: ['lamp'],
      params: {},
      episodes: 2,
      agents: [
        {
          use: 'llm',
          params: { base_url: fake.server.baseUrl, api_key: SECRET_KEY, system_prompt: PROMPT, frame_format: 'diff' },
          factors: {
            model: [
              { value: 'cheap', with: { pricing: CHEAP } },
              { value: 'dear', with: { pricing: DEAR } },
            ],
            batch: { param: 'max_actions_per_turn', levels: [1, 2] },
          },
        },
      ],
    });
    const report = run.runJson as RunReport;
    const card = report.harness_card!;
    const facts = card.agents.find((a) => a.label === 'llm[model=dear,batch=2]')!.facts;
    expect(facts).toMatchObject({
      agent: 'llm',
      kind: 'built-in',
      model: 'dear',
      api: 'chat',
      state_mode: 'harness',
      batch_size: 2,
      frame_format: 'diff',
      tools: 'one tool per action',
      compaction: 'summary',
      retries: 4,
    });
    expect(facts['prompt.system']).toBe(`sha256:${createHash('sha256').update(PROMPT).digest('hex').slice(0, 16)}`);
    const cardText = JSON.stringify(card);
    expect(cardText).not.toContain('prompt text');
    expect(cardText).not.toContain(SECRET_KEY);

    const { frontier } = report.factorial as FactorialSummary;
    expect(frontier.note).toBeNull();
    const point = (label: string) => frontier.points.find((p) => p.agent === label)!;
    // The same calls at ten times the price: ten times the dollars per episode.
    expect(point('llm[model=dear,batch=1]').cost_per_episode).toBeCloseTo(10 * point('llm[model=cheap,batch=1]').cost_per_episode!, 12);
    // ACTION1 alone wins no level of lamp: every arm scores 0, so the cheaper model's arms (as good, for less) are the frontier.
    expect(frontier.points.map((p) => p.mean)).toEqual([0, 0, 0, 0]);
    expect(frontier.points.filter((p) => p.on_frontier).map((p) => p.agent)).toEqual(['llm[model=cheap,batch=1]', 'llm[model=cheap,batch=2]']);

    const data = buildReportData(readRunFolderSnapshot(run.out), { kind: 'served', base_url: '/' });
    expect(data.harness_card).toEqual(card);
    expect(data.factorial?.designs[0]?.factors.map((f) => f.factor)).toEqual(['model', 'batch']);
  }, 60_000);
});
