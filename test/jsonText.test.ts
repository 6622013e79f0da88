/**
 * Deeply nested JSON (issue 10, point 16): `reasoning` nested 5,000 deep is 10 KB, under its 16 KiB
 * limit, and must be accepted, sent, echoed and recorded, though JSON.stringify overflows the stack on
 * it. stringifyJson writes what JSON.stringify writes, at any depth.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { InProcessTransport } from '../src/client/inProcessTransport.ts';
import { makeAction, stringifyDeep, stringifyJson } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { RecordingWriter } from '../src/recording/recordingWriter.ts';
import { startServer } from '../src/reference/server/index.ts';

/** `[[[ … "deep" … ]]]`, `depth` arrays around a string. */
function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (Array.isArray(current)) {
    current = current[0];
    depth++;
  }
  return depth;
}

const DEEP = nested(5000);
const dir = mkdtempSync(join(tmpdir(), 'arcbench-deep-'));
const running: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const item of running) await item.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('JSON text at any depth', () => {
  it('writes what JSON.stringify writes, for any JSON-like value', () => {
    const odd = fc.oneof(
      fc.constant(undefined),
      fc.constant(Number.NaN),
      fc.constant(() => 1),
      fc.date({ noInvalidDate: true }),
      fc.constant(-0),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        odd,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(stringifyDeep(v)).toBe(JSON.stringify(v));
        expect(stringifyJson(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a value 5,000 deep, which JSON.stringify cannot, and refuses a cycle as JSON.stringify does', () => {
    expect(() => JSON.stringify(DEEP)).toThrow(RangeError);
    const text = stringifyJson(DEEP)!;
    expect(text).toBe(`${'['.repeat(5000)}"deep"${']'.repeat(5000)}`);
    expect(depthOf(JSON.parse(text))).toBe(5000);
    const cycle: unknown[] = [];
    cycle.push([cycle]);
    expect(() => stringifyDeep(cycle)).toThrow(TypeError);
  });

  it('lets reasoning 5,000 deep through the service, over HTTP and into a recording', async () => {
    const service = new ReferenceService({ seed: 1 });
    const server = await startServer({ logger: false, serviceOptions: { seed: 2 } });
    running.push(server);
    const http = new HttpTransport({ baseUrl: server.url, apiKey: 'deep-key' });
    running.push(http);
    for (const [name, transport] of [
      ['in-process', new InProcessTransport(service)],
      ['http', http],
    ] as const) {
      const card = await transport.openScorecard({});
      const first = await transport.reset(card, 'crat');
      const frame = await transport.act(card, first.game_id, first.guid, makeAction(1, DEEP));
      expect(depthOf(frame.action_input.reasoning)).toBe(5000);
      const recording = new RecordingWriter(dir, `${name}.jsonl`, 'jsonl');
      recording.write(frame, frame.action_input);
      await recording.close();
      const line = JSON.parse(readFileSync(recording.path, 'utf8'));
      expect(depthOf(line.data.action_input.reasoning)).toBe(5000);
      await transport.closeScorecard(card);
    }
  });
});
