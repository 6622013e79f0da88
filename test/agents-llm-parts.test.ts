// The llm agent's pure parts on bad input: whatever a model writes, reading its answer gives a playable
// choice or a sentence for the model, never an exception; the cache key ignores field order and the key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, ResponseCache } from '../agents/llm/responseCache.ts';
import { checkChoice, readJsonAnswer, readToolCalls, toolsFor } from '../agents/llm/tools.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ALLOWED = [1, 2, 3, 4, 6, 0];

const isPlayable = (choice: { id: number; x?: number; y?: number }) =>
  ALLOWED.includes(choice.id) &&
  (choice.id !== 6 || (Number.isInteger(choice.x) && Number.isInteger(choice.y) && choice.x! >= 0 && choice.x! <= 63 && choice.y! >= 0 && choice.y! <= 63));

describe('reading an answer', () => {
  it('never throws on any text, and whatever it accepts is playable', () => {
    const answers = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          action: fc.constantFrom('ACTION1', 'action6', ' RESET ', 'ACTION5', 'ACTION6', 'JUMP', 7),
          x: fc.jsonValue(),
          y: fc.jsonValue(),
          rationale: fc.jsonValue(),
        })
        .map((v) => `Here: ${JSON.stringify(v)} done`),
    );
    fc.assert(
      fc.property(answers, (text) => {
        const { outcome } = readJsonAnswer(text, ALLOWED);
        return 'choice' in outcome ? isPlayable(outcome.choice) : typeof outcome.error === 'string' && outcome.error.length > 0;
      }),
    );
  });

  it('never throws on any tool calls, answers every call, and plays at most one action', () => {
    const call = fc.record({
      id: fc.string({ minLength: 1 }),
      function: fc.record({
        name: fc.constantFrom('ACTION1', 'ACTION6', 'RESET', 'write_notes', 'ACTION5', 'nope'),
        arguments: fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
      }),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 5 }), (calls) => {
        const answer = readToolCalls(calls, ALLOWED);
        if (answer.replies.length !== calls.length) return false;
        if (answer.outcome !== undefined && 'choice' in answer.outcome) return isPlayable(answer.outcome.choice);
        return true;
      }),
    );
  });

  it('names what is wrong in words the model can act on', () => {
    expect(checkChoice('ACTION5', {}, ALLOWED)).toEqual({
      error: '"ACTION5" is not an action you can take now; choose one of ACTION1, ACTION2, ACTION3, ACTION4, ACTION6, RESET.',
    });
    expect(checkChoice('ACTION6', { x: 3.5, y: 2 }, ALLOWED)).toEqual({ error: 'ACTION6 needs x and y as whole numbers from 0 to 63; got x=3.5, y=2.' });
    expect(checkChoice('action6', { x: 3, y: 2, rationale: ' left edge ' }, ALLOWED)).toEqual({ choice: { id: 6, x: 3, y: 2, rationale: 'left edge' } });
    expect(readJsonAnswer('no json here', ALLOWED).outcome).toEqual({ error: expect.stringMatching(/^the reply holds no JSON object/) });
  });

  it('offers one tool per action it may take, ACTION6 with x and y, and the notes tool', () => {
    const tools = toolsFor([6, 0]);
    expect(tools.map((t) => t.function.name)).toEqual(['ACTION6', 'RESET', 'write_notes']);
    expect(tools[0]?.function.parameters).toMatchObject({ required: ['x', 'y'], properties: { x: { type: 'integer', minimum: 0, maximum: 63 } } });
  });
});

describe('the response cache', () => {
  it('keys a request by its content, not the order of its fields', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        return canonicalJson(object) === canonicalJson(reversed);
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'arcbench-cache-'));
    try {
      const cache = new ResponseCache(dir);
      const key = cache.keyOf('http://x/v1', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 7);
      expect(cache.keyOf('http://x/v1', { messages: [{ content: 'hi', role: 'user' }], model: 'm' }, 7)).toBe(key);
      expect(cache.keyOf('http://y/v1', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 7)).not.toBe(key);
      // Another episode asking the same gets its own answer.
      expect(cache.keyOf('http://x/v1', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 8)).not.toBe(key);
      expect(cache.get(key)).toBeUndefined();
      cache.put(key, { choices: [{ message: { content: 'hello' } }] });
      expect(cache.get(key)).toEqual({ choices: [{ message: { content: 'hello' } }] });
      expect(readdirSync(dir)).toEqual([`${key}.json`]);
      expect(readFileSync(join(dir, `${key}.json`), 'utf8')).not.toContain('x/v1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the params of each api', () => {
  const issues = async (params: Record<string, unknown>) => {
    const { default: llm } = await import('../agents/llm.ts');
    const parsed = llm.params.safeParse({ model: 'm', api_key: 'k', ...params });
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('say which field is wrong for the api and what to do', async () => {
    expect(await issues({ api: 'anthropic', temperature: 0.5 })).toEqual(['temperature: the Messages API (api: anthropic) takes no temperature: remove it']);
    expect(await issues({ api: 'chat', compaction: 'native' })).toEqual([
      'compaction: Chat Completions has no native compaction: use compaction: summary, or api: responses or anthropic',
    ]);
    expect(await issues({ output: 'json', max_actions_per_turn: 3 })).toEqual([
      'max_actions_per_turn: batches of actions need tool calls: set output: tools, or max_actions_per_turn: 1',
    ]);
    expect(await issues({ api: 'anthropic', thinking_budget: 2_048, max_output_tokens: 2_000 })).toEqual([
      'max_output_tokens: max_output_tokens must be more than thinking_budget (the thinking is part of the reply)',
    ]);
    expect(await issues({ api: 'responses', state: 'stateless', compaction: 'native', max_actions_per_turn: 5 })).toEqual([]);
  });

  it('take the key of the api from its own variable', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const { default: llm } = await import('../agents/llm.ts');
      const parsed = llm.params.safeParse({ model: 'm', api: 'anthropic' });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/^no API key: export ANTHROPIC_API_KEY=… or set api_key/);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
