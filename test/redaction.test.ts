/**
 * The redactor's deep copy on any JSON: secret-named strings and secret values are replaced, and
 * nothing else changes, not even a `__proto__` key that JSON.parse made into plain data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFound } from '../src/protocol/zodIssues.ts';
import { looksLikeSecretValue, looksSecret, REDACTED, Redactor, redactSecretFields } from '../src/redaction.ts';

/** What the copy should be, written the slow, obvious way. */
function expected(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value)) return value.map((item) => expected(item, redactor));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, looksSecret(key) && typeof item === 'string' && item !== '' ? REDACTED : expected(item, redactor)]),
  );
}

const keys = fc.oneof(fc.constantFrom('api_key', 'authToken', 'note', 'tokens', 'max_output_tokens', '__proto__', 'constructor', 'seen'), fc.string());

describe('Redactor.value', () => {
  it('replaces secret-named strings and secret values, and copies everything else as it is', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('sk-live-123456', 'short', ''),
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(keys, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const redactor = new Redactor(['sk-live-123456', 'short']);
        const copy = redactor.value(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(expected(value, redactor)));
        expect(JSON.stringify(copy)).not.toContain('sk-live-123456');
      }),
    );
  });

  it('keeps a __proto__ key from JSON.parse as data, and leaves the copy an ordinary object', () => {
    const parsed = JSON.parse('{"__proto__":{"api_key":"k","polluted":true},"n":1}') as object;
    const copy = redactSecretFields(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"api_key":"[redacted]","polluted":true},"n":1}');
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('answers the same for a field name however often it is asked', () => {
    for (let i = 0; i < 3; i++) {
      expect(looksSecret('OPENAI_API_KEY')).toBe(true);
      expect(looksSecret('max_output_tokens')).toBe(true);
      expect(looksSecret('tokens_in')).toBe(false);
    }
  });
});

describe('values that look like keys', () => {
  it('an error that describes a value it found never echoes a key, whatever its length (property)', () => {
    const prefix = fc.constantFrom('sk-', 'sk-proj-', 'sk-ant-', 'xai-', 'gsk_', 'hf_', 'ghp_', 'github_pat_', 'AIza', 'AKIA');
    const rest = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);
    fc.assert(fc.property(prefix, rest, (p, r) => !describeFound(p + r).includes(p + r) && looksLikeSecretValue(p + r)));
  });

  it('shows the words a config holds, so the user sees what was read', () => {
    for (const word of ['reference', 'crat', 'lamp,crat', 'soon', 'https://example.org', 'ls20-016295f7601e', 'explorer-default']) {
      expect(looksLikeSecretValue(word)).toBe(false);
      expect(describeFound(word)).toBe(JSON.stringify(word));
    }
  });
});
