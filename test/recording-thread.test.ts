/**
 * The recording thread: the batch codec between the threads gives back every operation as packed
 * (any text, any number of grids, batches that grow), and writers that outrun the thread are held back
 * by the promise write() returns, with every line in the files at the end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRID_CELLS, type FrameResponse } from '../src/protocol/index.ts';
import { BatchBuilder, readBatch } from '../src/recording/recordingBatch.ts';
import { recordingLine } from '../src/recording/recordingLine.ts';
import { RecordingWriter } from '../src/recording/recordingWriter.ts';
import { tempDir } from './support/tempDir.ts';

type Operation =
  | { op: 'open'; id: number; path: string; format: 'gzip' | 'jsonl' }
  | { op: 'line'; id: number; head: string; grids: Uint8Array[]; tail: string }
  | { op: 'sync' | 'close'; id: number };

const grid = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    op: fc.constant('open' as const),
    id: fc.nat(),
    path: fc.string({ unit: 'grapheme' }),
    format: fc.constantFrom('gzip' as const, 'jsonl' as const),
  }),
  fc.record({
    op: fc.constant('line' as const),
    id: fc.nat(),
    head: fc.string({ unit: 'grapheme', maxLength: 300 }),
    grids: fc.array(grid, { maxLength: 3 }),
    tail: fc.string({ unit: 'grapheme', maxLength: 300 }),
  }),
  fc.record({ op: fc.constantFrom('sync' as const, 'close' as const), id: fc.nat() }),
);

const text = new TextDecoder();

describe('the batch between the threads', () => {
  it('reads back every operation as packed, in order, whatever the text and however much the batch grew', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 12 }), fc.integer({ min: 16, max: 9000 }), (operations, capacity) => {
        const builder = new BatchBuilder(capacity);
        for (const o of operations) {
          if (o.op === 'open') builder.open(o.id, o.path, o.format);
          else if (o.op === 'line') builder.line(o.id, o.head, o.grids, o.tail);
          else builder[o.op](o.id);
        }
        const read: Operation[] = [];
        const { buffer, length } = builder.take();
        readBatch(buffer, length, {
          open: (id, path, format) => read.push({ op: 'open', id, path, format }),
          line: (id, head, grids, tail) =>
            read.push({ op: 'line', id, head: text.decode(head), grids: grids.map((g) => Uint8Array.from(g)), tail: text.decode(tail) }),
          sync: (id) => read.push({ op: 'sync', id }),
          close: (id) => read.push({ op: 'close', id }),
        });
        expect(read).toEqual(operations);
        expect(builder.size).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a grid of the wrong size with a sentence', () => {
    expect(() => new BatchBuilder(64).line(1, 'h', [new Uint8Array(10)], 't')).toThrow(/a grid has 4096 cells, this one has 10/);
  });
});

/** A frame response whose grid differs line after line, so the gzip writer has real work. */
function frame(step: number): FrameResponse {
  const cells = new Uint8Array(GRID_CELLS);
  for (let i = 0; i < GRID_CELLS; i++) cells[i] = (i * 7 + step * 13) % 16;
  return {
    game_id: 'ls20-016295f7601e',
    guid: '2fa5332c-2e55-4825-b5c5-df960d504470',
    frame: [cells],
    state: 'NOT_FINISHED',
    levels_completed: 0,
    win_levels: 3,
    action_input: { id: 1 },
    available_actions: [1, 2, 3],
    full_reset: false,
  } as unknown as FrameResponse;
}

describe('writers faster than the recording thread', () => {
  it('are held back by the promise write() returns, and every line of every file is written', async () => {
    const dir = tempDir('recording-thread');
    const at = new Date(1_700_000_000_000);
    const lines = 2_500;
    const writers = ['a.gz', 'b.gz', 'c.jsonl'].map((name) => new RecordingWriter(dir, name, name.endsWith('.gz') ? 'gzip' : 'jsonl'));
    let heldBack = 0;
    for (let step = 0; step < lines; step++) {
      for (const writer of writers) {
        const behind = writer.write(frame(step), { id: 1, data: {} }, at);
        if (behind !== undefined) {
          heldBack++;
          await behind;
        }
      }
    }
    await Promise.all(writers.map((w) => w.close()));
    // 7,500 lines of ~9 KB are far more than the thread may have in flight: some writes had to wait.
    expect(heldBack).toBeGreaterThan(0);
    const expected = Array.from({ length: lines }, (_, step) => recordingLine(frame(step), { id: 1, data: {} }, at.toISOString())).join('');
    expect(gunzipSync(readFileSync(join(dir, 'a.gz'))).toString('utf8')).toBe(expected);
    expect(gunzipSync(readFileSync(join(dir, 'b.gz'))).toString('utf8')).toBe(expected);
    expect(readFileSync(join(dir, 'c.jsonl'), 'utf8')).toBe(expected);
  });
});
