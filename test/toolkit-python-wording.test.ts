/**
 * The toolkit dialect quotes values as the toolkit's server (Python) writes them (src/reference/server/pythonWording.ts):
 * checked against python3 itself on random JSON values, strings from every corner of Unicode among them.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonJsonBytes, pythonText } from '../src/reference/server/pythonWording.ts';

/** What Python writes for each value: json.dumps' bytes, compact, and str() of a scalar (None for the rest). */
const PYTHON_WORDING = `
import json, sys
values = json.load(sys.stdin)
scalar = lambda v: v is None or type(v) in (bool, int, str)
json.dump([[len(json.dumps(v, separators=(",", ":")).encode()), str(v) if scalar(v) else None] for v in values], sys.stdout)
`;

function asPythonWrites(values: unknown[]): [number, string | null][] {
  return JSON.parse(execFileSync('python3', ['-c', PYTHON_WORDING], { input: JSON.stringify(values), encoding: 'utf8' }));
}

const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\x7f', '\u2028', '"\\\n\t\x00', '😀'));
/** JSON as a client sends it, numbers whole (Python writes fractions and exponents in its own way). */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.maxSafeInteger(), anyString, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(anyString, tie('value'), { maxKeys: 4 }),
})).value;

describe('values as the toolkit server writes them', () => {
  it('json.dumps has as many bytes, and str() the same text, as python3 says', () => {
    const values = fc.sample(jsonValue, 400);
    const python = asPythonWrites(values);
    for (const [i, value] of values.entries()) {
      const [bytes, text] = python[i]!;
      expect(pythonJsonBytes(value), JSON.stringify(value)).toBe(bytes);
      if (text !== null) expect(pythonText(value), JSON.stringify(value)).toBe(text);
      else expect(pythonText(value)).toBeUndefined();
    }
  });
});
