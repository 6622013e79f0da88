// The transcript file's codec: any calls written read back the same (messages stored once, named by
// hash), a file cut short reads as the calls before the cut, and a line no writer wrote is named.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTranscript, type TranscriptCall, TranscriptWriter } from '../src/runfolder/transcriptFile.ts';
import { tempDir } from './support/tempDir.ts';

const usage = (step: number) => ({
  step,
  model: 'm',
  kind: 'action' as const,
  input_tokens: 10,
  cached_input_tokens: 0,
  reasoning_tokens: 0,
  output_tokens: 2,
  cost_usd: null,
  cached: false,
});

const message = fc.record({
  role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
  content: fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constant(null)),
});

/** Calls whose messages come from a small pool, so conversations repeat as real ones do. */
const calls = fc.array(message, { minLength: 1, maxLength: 6 }).chain((pool) =>
  fc.array(
    fc.record({
      messages: fc.array(fc.constantFrom(...pool), { maxLength: 8 }),
      tools: fc.option(fc.array(fc.record({ name: fc.string() }), { maxLength: 3 }), { nil: null }),
      instructions: fc.option(fc.string(), { nil: null }),
      response: fc.record({ content: fc.string() }),
    }),
    { minLength: 1, maxLength: 10 },
  ),
);

async function written(dir: string, list: ReadonlyArray<Pick<TranscriptCall, 'messages' | 'tools' | 'instructions' | 'response'>>): Promise<string> {
  const path = join(dir, `t-${Math.random().toString(36).slice(2)}.transcript.jsonl.gz`);
  const writer = new TranscriptWriter(path);
  for (const [step, call] of list.entries())
    writer.write({ ...call, step, at: '2026-01-01T00:00:00.000Z', kind: 'action', model: 'm', params: {}, usage: usage(step) });
  await writer.close();
  return path;
}

describe('the transcript file', () => {
  it('reads back every call as written, whatever the messages', async () => {
    const dir = tempDir('transcript-codec');
    await fc.assert(
      fc.asyncProperty(calls, async (list) => {
        const back = await readTranscript(await written(dir, list));
        expect(back.map(({ messages, tools, instructions, response, step, call }) => ({ messages, tools, instructions, response, step, call }))).toEqual(
          list.map((call, index) => ({ ...call, step: index, call: index })),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('has each call on disk when write returns, before any close: a run killed then keeps it', async () => {
    const dir = tempDir('transcript-at-once');
    const path = join(dir, 'killed.transcript.jsonl.gz');
    const writer = new TranscriptWriter(path);
    for (const step of [0, 1, 2]) {
      writer.write({
        messages: [{ role: 'user', content: `turn ${step}` }],
        tools: null,
        instructions: null,
        response: {},
        step,
        at: '2026-01-01T00:00:00.000Z',
        kind: 'action',
        model: 'm',
        params: {},
        usage: usage(step),
      });
      // Read at once, before anything else may run (as a kill -9 would leave it): no await, no close.
      const onDisk = gunzipSync(readFileSync(path), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
      expect(onDisk.match(/"call":\d+/g)).toEqual(Array.from({ length: step + 1 }, (_, i) => `"call":${i}`));
    }
    await writer.close();
  });

  it('stores a message repeated in every call once', async () => {
    const dir = tempDir('transcript-once');
    const system = { role: 'system', content: 'x'.repeat(10_000) };
    const path = await written(
      dir,
      Array.from({ length: 50 }, (_, i) => ({ messages: [system, { role: 'user', content: `turn ${i}` }], tools: null, instructions: null, response: {} })),
    );
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    expect(text.split('x'.repeat(10_000)).length - 1).toBe(1);
  });

  it('reads a file cut short as the calls before the cut, and names a line it did not write', async () => {
    const dir = tempDir('transcript-cut');
    const path = await written(dir, [
      { messages: [{ role: 'user', content: 'a' }], tools: null, instructions: null, response: {} },
      { messages: [{ role: 'user', content: 'b' }], tools: null, instructions: null, response: {} },
    ]);
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    writeFileSync(path, gzipSync(text.slice(0, -10)));
    expect((await readTranscript(path)).map((call) => call.messages)).toEqual([[{ role: 'user', content: 'a' }]]);
    writeFileSync(path, gzipSync('{"hello":1}\n'));
    await expect(readTranscript(path)).rejects.toThrow(/:1: neither a piece nor a call; expected a transcript written by arcbench run$/);
  });
});
