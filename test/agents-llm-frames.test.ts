// The llm agent's frame encodings: the text and diff forms are lossless (a model that reads carefully
// sees every cell), compact on real game frames, and the image form is a real PNG of the grid.
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { applyGridDiff, encodeGridDiff, NO_CHANGE } from '../agents/llm/frameDiff.ts';
import { frameParts, IMAGE_SCALE } from '../agents/llm/frameFormats.ts';
import { cropBox, decodeGridText, encodeGridText } from '../agents/llm/frameText.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { GRID_CELLS, GRID_SIZE, PALETTE_RGB } from '../src/protocol/index.ts';
import { firstOf, itemAt } from './support/lists.ts';

const anyGrid = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });

/** Grids shaped like game frames: a letterbox colour, boxes drawn on it, sometimes a HUD row on top. */
const gameLikeGrid = fc
  .record({
    background: fc.integer({ min: 0, max: 15 }),
    boxes: fc.array(
      fc.record({
        x: fc.nat(63),
        y: fc.nat(63),
        w: fc.integer({ min: 1, max: 64 }),
        h: fc.integer({ min: 1, max: 64 }),
        colour: fc.integer({ min: 0, max: 15 }),
      }),
      { maxLength: 6 },
    ),
    hud: fc.option(fc.uint8Array({ minLength: 64, maxLength: 64, max: 15 })),
  })
  .map(({ background, boxes, hud }) => {
    const grid = new Uint8Array(GRID_CELLS).fill(background);
    for (const box of boxes) {
      for (let y = box.y; y < Math.min(64, box.y + box.h); y++) grid.fill(box.colour, y * 64 + box.x, y * 64 + Math.min(64, box.x + box.w));
    }
    if (hud) grid.set(hud, 0);
    return grid;
  });

/** A boolean compare: toEqual on 4,096-byte arrays is most of a property test's time. */
const sameGrid = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));

const catalogFrames = gameCatalog().map((game) => [game.info.slug, game.start().frame()] as const);

describe('grid as text', () => {
  it('decodes back to the same grid, for any grid', () => {
    fc.assert(
      fc.property(fc.oneof(anyGrid, gameLikeGrid), (grid) => {
        expect(sameGrid(decodeGridText(encodeGridText(grid)), grid)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves out only cells of the letterbox colour', () => {
    fc.assert(
      fc.property(gameLikeGrid, (grid) => {
        const box = cropBox(grid);
        if (box === undefined) {
          expect(new Set(grid).size).toBe(1);
          return;
        }
        let strays = 0;
        for (let y = 0; y < GRID_SIZE; y++) {
          for (let x = 0; x < GRID_SIZE; x++) {
            const inside = x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
            if (!inside && grid[y * 64 + x] !== box.outside) strays++;
          }
        }
        expect(strays).toBe(0);
      }),
    );
  });

  it('numbers rows with their real y and puts a column ruler on top', () => {
    const grid = new Uint8Array(GRID_CELLS).fill(5);
    for (let y = 10; y <= 12; y++) grid.fill(9, y * 64 + 20, y * 64 + 23);
    grid[11 * 64 + 21] = 12;
    const text = encodeGridText(grid);
    expect(text.split('\n')).toEqual([
      '64x64 grid, one hex digit per cell; showing x 20-22, y 10-12; every cell outside is colour 5',
      'x  2',
      'x  012',
      '10 999',
      '11 9c9',
      '12 999',
    ]);
  });

  it('writes a run of equal rows once, with its range', () => {
    const grid = new Uint8Array(GRID_CELLS).fill(0);
    for (let y = 5; y < 40; y++) grid.fill(3, y * 64 + 1, y * 64 + 9);
    expect(encodeGridText(grid).split('\n').at(-1)).toBe('5-39 33333333');
    expect(encodeGridText(new Uint8Array(GRID_CELLS).fill(7))).toBe('64x64 grid; every cell is colour 7');
  });

  it.each(catalogFrames)('keeps a %s frame to a fraction of the 4,096 cells', (_slug, grid) => {
    const text = encodeGridText(grid);
    expect(decodeGridText(text)).toEqual(grid);
    expect(text.length).toBeLessThan(2600);
  });

  it('refuses text it did not write', () => {
    expect(() => decodeGridText('hello')).toThrow(/not a grid text/);
    expect(() => decodeGridText('64x64 grid, one hex digit per cell; showing all of it\nx\nx\n0 12')).toThrow(/not a grid row/);
  });
});

describe('grid diff', () => {
  it('applied to the earlier grid gives the later one, for any two grids', () => {
    fc.assert(
      fc.property(fc.oneof(anyGrid, gameLikeGrid), fc.oneof(anyGrid, gameLikeGrid), (before, after) => {
        expect(sameGrid(applyGridDiff(before, encodeGridDiff(before, after)), after)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('applied to the earlier grid gives the later one when a few cells change', () => {
    const edits = fc.array(fc.record({ cell: fc.nat(GRID_CELLS - 1), colour: fc.integer({ min: 0, max: 15 }) }), { maxLength: 40 });
    fc.assert(
      fc.property(gameLikeGrid, edits, (before, changes) => {
        const after = new Uint8Array(before);
        for (const { cell, colour } of changes) after[cell] = colour;
        const diff = encodeGridDiff(before, after);
        expect(sameGrid(applyGridDiff(before, diff), after)).toBe(true);
        const changed = after.reduce((n, v, i) => n + (v === before[i] ? 0 : 1), 0);
        if (changed === 0) expect(diff).toBe(NO_CHANGE);
        else expect(diff.split('\n')[0]).toMatch(new RegExp(`^${changed} cells? changed`));
      }),
    );
  });

  it('joins changes a cell or two apart into one run', () => {
    const before = new Uint8Array(GRID_CELLS);
    const after = new Uint8Array(before);
    after[3 * 64 + 10] = 4;
    after[3 * 64 + 12] = 4;
    after[3 * 64 + 40] = 8;
    expect(encodeGridDiff(before, after).split('\n').slice(1)).toEqual(['y3 x10: 404', 'y3 x40: 8']);
  });

  it('refuses a line it did not write or one that runs off the grid', () => {
    const grid = new Uint8Array(GRID_CELLS);
    expect(() => applyGridDiff(grid, 'x\nhello')).toThrow(/not a diff line/);
    expect(() => applyGridDiff(grid, 'x\ny0 x63: 12')).toThrow(/runs off the grid/);
  });
});

describe('frame formats', () => {
  const [, first] = firstOf(catalogFrames, 'catalog frame');

  it('text: the whole grid', () => {
    const part = firstOf(frameParts('text', first, undefined), 'frame part');
    expect(part.type).toBe('text');
    expect(decodeGridText((part as { text: string }).text.replace(/^Frame:\n/, ''))).toEqual(first);
  });

  it('diff: the change when the model has the earlier frame, the whole grid otherwise or when shorter', () => {
    const next = new Uint8Array(first);
    next[40 * 64 + 40] = (first[40 * 64 + 40]! + 1) % 16;
    const change = firstOf(frameParts('diff', next, first) as Array<{ text: string }>, 'frame part');
    expect(change.text).toMatch(/^Frame, as the change from the previous frame:\n1 cell changed/);
    expect(applyGridDiff(first, change.text.split('\n').slice(1).join('\n'))).toEqual(next);
    const textOf = (parts: ReturnType<typeof frameParts>) => (firstOf(parts, 'frame part') as { text: string }).text;
    expect(textOf(frameParts('diff', next, undefined))).toMatch(/^Frame:\n64x64 grid/);
    const [, unrelated] = itemAt(catalogFrames, 2, 'catalog frame');
    expect(textOf(frameParts('diff', unrelated, first))).toMatch(/^Frame:\n64x64 grid/);
  });

  it('image: a PNG of the grid in the palette, a square of pixels per cell', () => {
    const parts = frameParts('image', first, undefined);
    const image = parts.find((part) => part.type === 'image_url') as { image_url: { url: string } };
    const base64 = image.image_url.url.replace(/^data:image\/png;base64,/, '');
    const png = PNG.sync.read(Buffer.from(base64, 'base64'));
    expect(png.width).toBe(64 * IMAGE_SCALE);
    for (const cell of [0, 100, 2080, 4095]) {
      const x = (cell % 64) * IMAGE_SCALE + IMAGE_SCALE - 1;
      const y = Math.floor(cell / 64) * IMAGE_SCALE;
      const at = (y * png.width + x) * 4;
      expect([...png.data.subarray(at, at + 3)]).toEqual(PALETTE_RGB[first[cell]!]);
    }
  });
});
