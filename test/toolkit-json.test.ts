/**
 * The toolkit dialect's JSON writer (src/reference/server/toolkitJson.ts) against Python's own: every value reads
 * back as it was, keys come sorted at every depth as Python sorts them, and the score fields are written as floats, as Flask
 * writes them; the caller's `opaque` keeps its numbers as sent.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolkitJsonText } from '../src/reference/server/toolkitJson.ts';

/** JSON of integers (Python and JavaScript write other numbers differently, and no score is written as one), strings, arrays and objects. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { maxDepth: 3 },
    fc.integer(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('json'), { maxKeys: 4 }),
  ),
}));

/** Python's json.dumps with sorted keys, as Flask's jsonify writes (but for escaping non-ASCII, which no reader can tell). */
function pythonTexts(values: readonly unknown[]): string[] {
  const script = 'import json,sys; print(json.dumps([json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False) for v in json.load(sys.stdin)]))';
  return JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(values), encoding: 'utf8' })) as string[];
}

describe('the toolkit dialect’s JSON', () => {
  it('writes any JSON as Python does with sorted keys, and it reads back as written', () => {
    const values = fc.sample(json, { numRuns: 300, seed: 32 });
    const python = pythonTexts(values);
    for (const [i, value] of values.entries()) {
      const text = toolkitJsonText(value);
      expect(text).toBe(python[i]);
      expect(JSON.parse(text)).toEqual(value);
    }
  });

  it('writes whole scores as floats, and other numbers (opaque’s too) as they are', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 115 }), fc.integer({ min: 0, max: 1000 }), (score, actions) => {
        const text = toolkitJsonText({ score, level_scores: [score, 0], actions, opaque: { score } });
        expect(text).toBe(`{"actions":${actions},"level_scores":[${score}.0,0.0],"opaque":{"score":${score}},"score":${score}.0}`);
      }),
    );
  });

  it('writes a scorecard as Flask’s jsonify does', () => {
    const card = {
      score: 6.666666666666667,
      card_id: 'c',
      environments: [{ runs: [{ level_scores: [100, 0], score: 0, guid: 'g' }], id: 'bt11' }],
      tags: ['agent'],
    };
    const flask = execFileSync(
      'python3',
      [
        '-c',
        'import json,sys; v=json.load(sys.stdin); r=v["environments"][0]["runs"][0]; r["score"]=float(r["score"]); r["level_scores"]=[float(x) for x in r["level_scores"]]; sys.stdout.write(json.dumps(v, sort_keys=True, separators=(",", ":")))',
      ],
      { input: JSON.stringify(card), encoding: 'utf8' },
    );
    expect(toolkitJsonText(card)).toBe(flask);
  });
});
