/**
 * The official templates run unchanged (issue 31): the random template and the LLM templates of
 * llm_agents.py, where they lie in the official checkout and copied alone, with arcbench's stand-in
 * arcengine and with the real one (arcengine 0.9.3), against a fake model server through the stand-in
 * `openai` package (test/fixtures/python-sdk). Each plays a few actions, and both engines give the
 * same actions, the LLM templates' clicks answered with numeric strings ({"x": "17"}) as models do
 * (the random template seeds `random` with the clock, so only how many actions it played is compared).
 *
 * Left out, for what they import and nothing here can install: reasoning_agent.py and multimodal.py
 * (Pillow), langgraph_random_agent.py, langgraph_functional_agent.py and langgraph_thinking/
 * (langgraph), smolagents.py (smolagents; it also runs its own loop in main(), which arcbench refuses).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from './support/fakeModelServer.ts';
import { OFFICIAL_TEMPLATES, pythonHasRealEngineDependencies, REAL_ARCENGINE } from './support/officialCode.ts';
import { recordedActions } from './support/pythonAgents.ts';

const SDK_STAND_IN = join(import.meta.dirname, 'fixtures', 'python-sdk');
const TEMPLATES = [
  ['random_agent.py', 'Random'],
  ['llm_agents.py', 'LLM'],
  ['llm_agents.py', 'ReasoningLLM'],
  ['llm_agents.py', 'FastLLM'],
  ['llm_agents.py', 'GuidedLLM'],
  ['llm_agents.py', 'MyCustomLLM'],
] as const;
/** The model's choices in turn, by how long the conversation is: a move, a click as models write it, another move. */
const CHOICES = [
  ['ACTION1', '{}'],
  ['ACTION6', '{"x": "17", "y": "5"}'],
  ['ACTION3', '{}'],
] as const;

/** Answers as the template asked: text to observe, a tool call (tools) or a function call (functions). */
function reply(request: RecordedRequest, index: number) {
  const body = request.body as { model: string; messages: unknown[]; tools?: unknown; functions?: unknown };
  const usage = { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 };
  if (body.tools === undefined && body.functions === undefined) return { text: 'the grid is still', usage };
  const [name, args] = CHOICES[body.messages.length % CHOICES.length]!;
  const message =
    body.tools === undefined
      ? { role: 'assistant', content: null, function_call: { name, arguments: args } }
      : { role: 'assistant', content: null, tool_calls: [{ id: `call_${index}`, type: 'function', function: { name, arguments: args } }] };
  const choice = { index: 0, message, finish_reason: body.tools === undefined ? 'function_call' : 'tool_calls' };
  return { rawBody: JSON.stringify({ id: `chatcmpl-${index}`, object: 'chat.completion', created: 1, model: body.model, choices: [choice], usage }) };
}

let dir: string;
let fake: FakeModelServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-templates-'));
  mkdirSync(join(dir, 'lone'));
  for (const file of new Set(TEMPLATES.map(([file]) => file))) cpSync(join(OFFICIAL_TEMPLATES, file), join(dir, 'lone', file));
  fake = await startFakeModelServer({ fallback: reply });
});

afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const labelOf = (name: string, where: string) => `${name.toLowerCase()}-${where}`;

function experiment(name: string): string {
  const entries = TEMPLATES.flatMap(([file, name]) => [
    `  - { use: ${JSON.stringify(`${join(OFFICIAL_TEMPLATES, file)}:${name}`)}, label: ${labelOf(name, 'checkout')} }`,
    `  - { use: ./lone/${file}:${name}, label: ${labelOf(name, 'lone')} }`,
  ]);
  const lines = [`name: ${name}`, 'games: [plnk]', 'agents:', ...entries, 'budgets: { max_actions: 5 }', 'recordings: jsonl', 'concurrency: 2', ''];
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Each label's recorded actions, the run played with `pythonPath` and the stand-in SDK, the fake as upstream. */
async function actionsOf(name: string, pythonPath: readonly string[]): Promise<Map<string, unknown[]>> {
  const saved = { PYTHONPATH: process.env.PYTHONPATH, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
  Object.assign(process.env, { PYTHONPATH: [...pythonPath, SDK_STAND_IN].join(':'), OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-test' });
  const out = join(dir, name);
  try {
    await runExperiment(await loadExperiment(experiment(name)), { out });
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const actions = new Map<string, unknown[]>();
  for (const episode of parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'))) {
    expect(episode.error, episode.agent).toBeUndefined();
    const inputs = await recordedActions(join(out, episode.recording!));
    actions.set(
      episode.agent,
      inputs.map(({ id, data }) => ({ id, ...(id === 6 ? { x: data?.x, y: data?.y } : {}) })),
    );
  }
  return actions;
}

describe('the official random and LLM templates, unchanged', () => {
  it.skipIf(!pythonHasRealEngineDependencies())(
    'play in the checkout and copied alone, the same actions with the stand-in arcengine and the real one (skipped only when python3 cannot import numpy and pydantic)',
    async () => {
      const standIn = await actionsOf('stand-in', []);
      const real = await actionsOf('real', [REAL_ARCENGINE]);
      expect([...standIn.keys()].sort()).toEqual(TEMPLATES.flatMap(([, name]) => [labelOf(name, 'checkout'), labelOf(name, 'lone')]).sort());
      for (const [label, actions] of standIn) {
        expect(actions.length, label).toBeGreaterThan(1);
        // The random template seeds random with the clock (time.time()), by design: its actions differ run to run.
        if (label.startsWith('random-')) expect(real.get(label)?.length, label).toBe(actions.length);
        else expect(real.get(label), label).toEqual(actions);
      }
      for (const [, name] of TEMPLATES.slice(1)) expect(standIn.get(labelOf(name, 'lone'))).toEqual(standIn.get(labelOf(name, 'checkout')));
      // The LLM templates' click came as strings and was sent as numbers.
      for (const [, name] of TEMPLATES.slice(1)) expect(standIn.get(labelOf(name, 'checkout'))).toContainEqual({ id: 6, x: 17, y: 5 });
    },
    180_000,
  );
});
