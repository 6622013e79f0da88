// The service checks well-formed command bodies by hand and leaves the rest to zod: both paths must
// accept exactly the same bodies and give the same validated request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { clickActionRequestSchema, resetRequestSchema, simpleActionRequestSchema } from '../src/protocol/index.ts';
import { actionRequest, resetRequest } from '../src/reference/commandRequest.ts';

const edges: unknown[] = [undefined, null, '', 'g', 'crat', 0, 1, -1, 63, 64, 1.5, '3', true, [], {}, { a: 1 }];

function outcome(parse: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parse() };
  } catch {
    return { ok: false };
  }
}

function expectSameAsZod(schema: z.ZodType, handChecked: (body: unknown) => unknown, body: unknown, label: string) {
  const expected = schema.safeParse(body);
  const actual = outcome(() => handChecked(body));
  expect(actual.ok, label).toBe(expected.success);
  if (actual.ok && expected.success) expect(actual.value, label).toEqual(expected.data);
}

const cases = [
  {
    name: 'RESET',
    schema: resetRequestSchema,
    check: resetRequest,
    base: { game_id: 'crat', card_id: 'c-1', guid: 'g-1' },
    fields: ['game_id', 'card_id', 'guid', 'reasoning'],
  },
  {
    name: 'ACTION1',
    schema: simpleActionRequestSchema,
    check: (body: unknown) => actionRequest(1, body),
    base: { game_id: 'crat', guid: 'g-1' },
    fields: ['game_id', 'guid', 'reasoning'],
  },
  {
    name: 'ACTION6',
    schema: clickActionRequestSchema,
    check: (body: unknown) => actionRequest(6, body),
    base: { game_id: 'crat', guid: 'g-1', x: 5, y: 63 },
    fields: ['game_id', 'guid', 'x', 'y', 'reasoning'],
  },
] as const;

describe('hand-checked command bodies', () => {
  it('agree with the zod schemas on every field set to every edge value', () => {
    for (const { name, schema, check, base, fields } of cases) {
      for (const field of fields) {
        for (const value of edges) {
          const body: Record<string, unknown> = { ...base, [field]: value };
          if (value === undefined) delete body[field];
          expectSameAsZod(schema, check, body, `${name} ${field} = ${JSON.stringify(value)}`);
        }
      }
      for (const body of [null, [], 'x', 7, {}, { ...base, extra: 1 }]) expectSameAsZod(schema, check, body, `${name} body ${JSON.stringify(body)}`);
    }
  });

  it('agree with the zod schemas on random bodies', () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          game_id: fc.oneof(fc.string(), fc.jsonValue()),
          guid: fc.oneof(fc.uuid(), fc.jsonValue()),
          card_id: fc.oneof(fc.uuid(), fc.constant(null)),
          x: fc.oneof(fc.integer({ min: -2, max: 66 }), fc.double()),
          y: fc.integer({ min: -2, max: 66 }),
          reasoning: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(body, (value) => {
        for (const { name, schema, check } of cases) expectSameAsZod(schema, check, value, name);
      }),
      { numRuns: 500 },
    );
  });
});
