// Compressed recordings: the gzip writer's output decodes (node:zlib, which checks the checksum and
// size) to exactly the lines the plain writer writes, for real game frames and for any sequence of
// frames fast-check can think of; a stream cut anywhere reads as a prefix of those lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ActionInput, FrameResponse } from '../src/protocol/index.ts';
import { GRID_CELLS } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { GzipRecordingEncoder } from '../src/recording/recordingGzip.ts';
import { recordingLine } from '../src/recording/recordingLine.ts';
import { readRecording, readRecordingText } from '../src/recording/recordingReader.ts';
import { RecordingWriter } from '../src/recording/recordingWriter.ts';
import { createRng } from '../src/agent/rng.ts';
import { tempDir } from './support/tempDir.ts';
import { firstOf, itemAt } from './support/lists.ts';

const recordingDir = () => tempDir('recording');

interface Line {
  response: FrameResponse;
  sent: ActionInput;
  timestamp: string;
}

/** Encodes the lines, with a sync flush after the lines listed, and returns the whole gzip stream. */
function encode(lines: readonly Line[], flushAfter: ReadonlySet<number> = new Set()): Buffer {
  const encoder = new GzipRecordingEncoder();
  const parts: Buffer[] = [];
  lines.forEach((line, index) => {
    encoder.write(line.response, line.sent, line.timestamp);
    if (flushAfter.has(index)) {
      encoder.syncFlush();
      parts.push(Buffer.from(encoder.completeBytes()));
      encoder.consumed();
    }
  });
  parts.push(Buffer.from(encoder.completeBytes()));
  encoder.consumed();
  parts.push(Buffer.from(encoder.finish()));
  return Buffer.concat(parts);
}

const plainText = (lines: readonly Line[]) => lines.map((l) => recordingLine(l.response, l.sent, l.timestamp)).join('');

/** Real frames: random actions on every catalog game of the in-process reference service. */
function realLines(actionsPerGame: number, seed: number): Line[][] {
  const key = 'recording-test';
  const service = new ReferenceService({ seed });
  const cardId = service.openScorecard(key, {}).card_id;
  const rng = createRng(seed);
  return service.listGames(key).map((game) => {
    let response = service.command(key, 'RESET', { game_id: game.game_id, card_id: cardId });
    const guid = response.guid;
    const lines: Line[] = [{ response, sent: { id: 0, data: {} }, timestamp: new Date(1_700_000_000_000).toISOString() }];
    for (let step = 1; step <= actionsPerGame; step++) {
      const id = game.tags?.includes('click') ? 6 : rng.pick([1, 2, 3, 4, 5, 6, 7, 0]);
      if (response.state !== 'NOT_FINISHED' || id === 0) {
        response = service.command(key, 'RESET', { game_id: game.game_id, guid });
        lines.push({ response, sent: { id: 0, data: {} }, timestamp: new Date(1_700_000_000_000 + step * 37).toISOString() });
        continue;
      }
      const x = rng.int(64);
      const y = rng.int(64);
      const body = id === 6 ? { game_id: game.game_id, guid, x, y } : { game_id: game.game_id, guid };
      response = service.command(key, `ACTION${id}` as 'ACTION1', body);
      const sent: ActionInput = id === 6 ? { id, data: { game_id: game.game_id, x, y } } : { id, data: { game_id: game.game_id } };
      lines.push({ response, sent, timestamp: new Date(1_700_000_000_000 + step * 37).toISOString() });
    }
    return lines;
  });
}

describe('gzip recordings', () => {
  it('decode to exactly the plain lines, for real frames of every game, at a fraction of zlib level 3 size', () => {
    for (const lines of realLines(300, 5)) {
      const compressed = encode(lines, new Set([0, 17, 150]));
      const text = plainText(lines);
      expect(gunzipSync(compressed).toString('utf8')).toBe(text);
      // Not a size target, a sanity bound: within 2× of zlib's level 3 on the same text.
      expect(compressed.length).toBeLessThan(2 * gzipSync(text, { level: 3 }).length);
    }
  });

  it('decode to exactly the plain lines for any frames: animations, two-digit colours, long reasoning, non-ASCII text', () => {
    const grid = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });
    // Grids that change a little from the one before, as games do: a rectangle painted in one colour.
    const edit = fc.record({ x: fc.nat(63), y: fc.nat(63), w: fc.integer({ min: 1, max: 64 }), h: fc.integer({ min: 1, max: 64 }), colour: fc.nat(15) });
    const line = fc.record({
      edits: fc.array(edit, { minLength: 1, maxLength: 4 }),
      state: fc.constantFrom('NOT_FINISHED', 'WIN', 'GAME_OVER'),
      levels: fc.nat(254),
      action: fc.nat(7),
      x: fc.nat(63),
      y: fc.nat(63),
      reasoning: fc.option(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ minLength: 20_000, maxLength: 40_000 })), { nil: undefined }),
      flush: fc.boolean(),
    });
    fc.assert(
      fc.property(grid, fc.array(line, { minLength: 1, maxLength: 12 }), (start, specs) => {
        let last = start;
        const flushes = new Set<number>();
        const lines: Line[] = specs.map((spec, index) => {
          const frame = spec.edits.map((e) => {
            const copy = new Uint8Array(last);
            for (let y = e.y; y < Math.min(64, e.y + e.h); y++) copy.fill(e.colour, y * 64 + e.x, y * 64 + Math.min(64, e.x + e.w));
            last = copy;
            return copy;
          });
          if (spec.flush) flushes.add(index);
          const sent: ActionInput = spec.action === 6 ? { id: 6, data: { game_id: 'game-00000000', x: spec.x, y: spec.y } } : { id: spec.action, data: {} };
          if (spec.reasoning !== undefined) (sent as { reasoning?: unknown }).reasoning = spec.reasoning;
          const response = {
            game_id: 'game-00000000',
            guid: '9c5c790d-7421-41f6-847b-3839bbae902e',
            frame,
            state: spec.state,
            levels_completed: spec.levels,
            win_levels: 6,
            action_input: sent,
            available_actions: [1, 2, 6],
            full_reset: index === 0,
          } as FrameResponse;
          return { response, sent, timestamp: new Date(1_700_000_000_000 + index * 1013).toISOString() };
        });
        const compressed = encode(lines, flushes);
        const text = plainText(lines);
        expect(gunzipSync(compressed).toString('utf8')).toBe(text);
        // Cut anywhere, the stream decodes to a prefix of the text (what a reader of a killed run's file sees).
        // Compared as bytes: the cut may fall inside a character of several bytes.
        const cut = Math.floor(compressed.length * 0.6);
        const prefix = gunzipSync(compressed.subarray(0, cut), { finishFlush: constants.Z_SYNC_FLUSH });
        expect(Buffer.from(text, 'utf8').subarray(0, prefix.length).equals(prefix)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('an encoder reset for the next recording writes exactly what a new one writes', () => {
    const [first, second] = [itemAt(realLines(60, 3), 1, 'game'), itemAt(realLines(60, 4), 3, 'game')];
    const reused = new GzipRecordingEncoder();
    for (const line of first) reused.write(line.response, line.sent, line.timestamp);
    reused.finish();
    reused.reset();
    for (const line of second) reused.write(line.response, line.sent, line.timestamp);
    expect(Buffer.from(reused.finish())).toEqual(encode(second));
    expect(gunzipSync(encode(second)).toString('utf8')).toBe(plainText(second));
  });

  it('the writer writes .gz by default and plain when asked, both read back the same by every reader', async () => {
    const dir = recordingDir();
    const lines = itemAt(realLines(120, 9), 2, 'game');
    for (const format of ['gzip', 'jsonl'] as const) {
      const writer = new RecordingWriter(dir, `r.${format}`, format);
      for (const line of lines) writer.write(line.response, line.sent, new Date(line.timestamp));
      await writer.close();
    }
    const text = plainText(lines);
    expect(gunzipSync(readFileSync(join(dir, 'r.gzip'))).toString('utf8')).toBe(text);
    expect(readFileSync(join(dir, 'r.jsonl'), 'utf8')).toBe(text);
    for (const file of ['r.gzip', 'r.jsonl']) {
      expect(await readRecordingText(join(dir, file))).toBe(text);
      const entries = [];
      for await (const entry of readRecording(join(dir, file))) entries.push(entry);
      expect(entries.map((e) => `${JSON.stringify(e)}\n`).join('')).toBe(text);
    }
  });

  it('a recording still being written reads up to its last flush; one cut short reads as its complete lines', async () => {
    const dir = recordingDir();
    const lines = firstOf(realLines(40, 2), 'game');
    const writer = new RecordingWriter(dir, 'live.gz');
    const first = firstOf(lines, 'line');
    writer.write(first.response, first.sent, new Date(first.timestamp));
    // The file is made in the background; the lines that waited for it are on disk once it exists.
    await writer.whenOpen();
    expect(await readRecordingText(join(dir, 'live.gz'))).toBe(plainText(lines.slice(0, 1)));
    for (const line of lines.slice(1)) writer.write(line.response, line.sent, new Date(line.timestamp));
    await writer.close();
    const text = plainText(lines);
    expect(await readRecordingText(join(dir, 'live.gz'))).toBe(text);

    const whole = readFileSync(join(dir, 'live.gz'));
    for (const cut of [20, 300, Math.floor(whole.length / 2), whole.length - 3]) {
      writeFileSync(join(dir, 'cut.gz'), whole.subarray(0, cut));
      const partial = await readRecordingText(join(dir, 'cut.gz'));
      expect(text.startsWith(partial)).toBe(true);
      expect(partial === '' || partial.endsWith('\n')).toBe(true);
      const entries = [];
      for await (const entry of readRecording(join(dir, 'cut.gz'))) entries.push(entry);
      expect(entries.length).toBe(partial.split('\n').length - 1);
    }
  });

  it('a recording that cannot be made fails on write or close with a sentence naming it', async () => {
    const writer = new RecordingWriter(join(recordingDir(), 'no-such-folder'), 'x.gz');
    writer.write(firstOf(firstOf(realLines(1, 1), 'game'), 'line').response, { id: 0, data: {} });
    await expect(writer.close()).rejects.toThrow(/cannot write the recording .*no-such-folder\/x\.gz: ENOENT/);
  });

  it('a bad line in the middle of a recording is an error naming the file, the line and the field', async () => {
    const dir = recordingDir();
    const line = JSON.stringify({ timestamp: 't', data: { frame: [[[0]]], action_input: { id: 0 }, state: 'NOT_FINISHED' } });
    writeFileSync(join(dir, 'bad.recording.jsonl'), `${line}\n{"timestamp":"t","data":{"frame":[]}}\n${line}\n`);
    const read = async () => {
      for await (const entry of readRecording(join(dir, 'bad.recording.jsonl'))) void entry;
    };
    await expect(read()).rejects.toThrow(/bad\.recording\.jsonl:2: "data\.frame" is not a list of grids/);
    writeFileSync(join(dir, 'gz.recording.jsonl.gz'), gzipSync(`${line}\nnot json\n${line}\n`));
    const readGz = async () => {
      for await (const entry of readRecording(join(dir, 'gz.recording.jsonl.gz'))) void entry;
    };
    await expect(readGz()).rejects.toThrow(/gz\.recording\.jsonl\.gz:2: not JSON/);
  });
});
