// Batches of actions (`max_actions_per_turn`): one reply plans several actions, each optionally with a
// prediction; the agent plays them one by one without another call, stops at the first contradicted
// prediction, and tells the model where and why; the call's usage goes with the batch's first action.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
const crat = levelOneToolCalls('crat');

function sentReasoning(out: string, recording: string): unknown[] {
  const text = gunzipSync(readFileSync(join(out, recording))).toString('utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => JSON.parse(line).data.action_input.reasoning);
}

async function play(maxActions: number, params: Record<string, unknown> = {}) {
  const run = await runLlmExperiment(fake.newFolder(), {
    name: 'batches',
    games: [crat.gameId],
    params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: { input: 1, output: 2 }, max_actions_per_turn: 3, ...params },
    budgets: { max_actions: maxActions },
  });
  return { run, episode: firstOf(run.episodesFromFile, 'episode') };
}

const lastUserText = (request: RecordedRequest) => request.body.messages.at(-1).content as string;
const withPrediction = (index: number, expectChange: boolean) => {
  const call = crat.calls[index]!;
  return toolCall(call.name, { ...(call.arguments as Record<string, unknown>), prediction: 'the player moves', expect_change: expectChange });
};

describe('batches of actions', () => {
  it('plays 3 actions from one reply with 1 call; each action names its batch and position; the usage goes with the first', async () => {
    fake.server.script({ toolCalls: [0, 1, 2].map((i) => withPrediction(i, true)), usage: { prompt_tokens: 1_000, completion_tokens: 50 } });
    const { run, episode } = await play(3);
    expect(episode.actions).toBe(3);
    expect(fake.server.requests).toHaveLength(1);
    expect(episode.model_calls!.map((c) => c.step)).toEqual([0]);
    const reasoning = sentReasoning(run.out, episode.recording!);
    expect(reasoning[0]).toMatchObject({
      input_tokens: 1_000,
      output_tokens: 50,
      calls: 1,
      rationale: 'batch 1, action 1 of 3: solver move; expects: the player moves',
    });
    expect(reasoning.slice(1)).toEqual([
      'batch 1, action 2 of 3: solver move; expects: the player moves',
      'batch 1, action 3 of 3: solver move; expects: the player moves',
    ]);
    // The tools offer predictions, and the system prompt says how batches end.
    const first = fake.server.request(0).body;
    expect(first.tools[0].function.parameters.properties).toHaveProperty('expect_change');
    expect(first.messages[0].content).toContain('You may plan up to 3 actions in one reply');
  });

  it('stops at the first contradicted prediction and tells the model where and why', async () => {
    fake.server.script({ toolCalls: [withPrediction(0, false), withPrediction(1, true), withPrediction(2, true)] }, { toolCalls: [toolCall('ACTION1')] });
    const { episode } = await play(2);
    expect(episode.actions).toBe(2);
    expect(fake.server.requests).toHaveLength(2);
    expect(lastUserText(fake.server.request(1))).toMatch(
      /Your batch 1 stopped after action 1 of 3 \(ACTION\d\): you expected no change, but \d+ cells changed; the 2 actions after it were not played\./,
    );
  });

  it('tells the model a whole batch was played, and refuses more actions than allowed', async () => {
    fake.server.script(
      { toolCalls: [crat.calls[0]!, crat.calls[1]!] },
      { toolCalls: ['ACTION1', 'ACTION2', 'ACTION3', 'ACTION4'].map((name) => toolCall(name)) },
      { toolCalls: [toolCall('ACTION1')] },
    );
    const { episode } = await play(3);
    expect(episode.actions).toBe(3);
    const second = fake.server.request(1);
    expect(lastUserText(second)).toContain('Your batch 1 of 2 actions was played whole.');
    const retry = fake.server.request(2).body.messages;
    expect(retry.at(-1).content).toBe('That answer could not be played: call at most 3 action tools per turn. Try again.');
  });
});
