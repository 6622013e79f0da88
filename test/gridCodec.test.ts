import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createGrid, decodeFrames, decodeGrid, encodeFrames, encodeGrid, GRID_CELLS, GridCodecError, gridFromRows, gridToRows } from '../src/protocol/index.ts';

const gridArbitrary = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });
const rowsOf = (grid: Uint8Array) => gridToRows(grid);
// Byte comparison: vitest's deep equality walks 4096 elements one by one and is slow.
const expectSameGrid = (actual: Uint8Array, expected: Uint8Array) => expect(Buffer.compare(actual, expected)).toBe(0);

describe('grid codec', () => {
  it('encodes exactly what JSON.stringify writes for the nested arrays', () => {
    fc.assert(
      fc.property(gridArbitrary, (grid) => {
        expect(encodeGrid(grid)).toBe(JSON.stringify(rowsOf(grid)));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips every grid, as a string and as bytes', () => {
    fc.assert(
      fc.property(gridArbitrary, (grid) => {
        const text = encodeGrid(grid);
        expectSameGrid(decodeGrid(text), grid);
        expectSameGrid(decodeGrid(Buffer.from(text)), grid);
      }),
      { numRuns: 200 },
    );
  });

  it('encodes grids whose rows repeat (as scaled game frames do), aligned or not, exactly as JSON.stringify', () => {
    // Few distinct rows, each repeated a random number of times: the encoder copies repeated rows.
    const repeatedRows = fc
      .array(fc.tuple(fc.uint8Array({ minLength: 64, maxLength: 64, max: 15 }), fc.integer({ min: 1, max: 20 })), { minLength: 1, maxLength: 12 })
      .map((runs) => {
        const grid = new Uint8Array(GRID_CELLS);
        let y = 0;
        for (let i = 0; y < 64; i = (i + 1) % runs.length) {
          const [row, repeats] = runs[i]!;
          for (let k = 0; k < repeats && y < 64; k++, y++) grid.set(row, y * 64);
        }
        return grid;
      });
    fc.assert(
      fc.property(repeatedRows, fc.integer({ min: 0, max: 9 }), (grid, offset) => {
        const backing = new Uint8Array(GRID_CELLS + offset);
        const placed = backing.subarray(offset, offset + GRID_CELLS);
        placed.set(grid);
        const text = encodeGrid(placed);
        expect(text).toBe(JSON.stringify(rowsOf(grid)));
        expectSameGrid(decodeGrid(text), grid);
        // Repeated rows are copied by the decoder too, also when their text is spaced out.
        expectSameGrid(decodeGrid(JSON.stringify(rowsOf(grid), null, 1)), grid);
      }),
      { numRuns: 150 },
    );
  });

  it('round-trips several grids as a frame value', () => {
    fc.assert(
      fc.property(fc.array(gridArbitrary, { minLength: 1, maxLength: 4 }), (grids) => {
        const decoded = decodeFrames(encodeFrames(grids));
        expect(decoded.length).toBe(grids.length);
        for (const [i, grid] of decoded.entries()) expectSameGrid(grid, grids[i]!);
      }),
      { numRuns: 50 },
    );
  });

  it('accepts any valid JSON spelling of a grid (whitespace, 1.0, exponent)', () => {
    const grid = createGrid(3);
    grid[5] = 15;
    const spaced = JSON.stringify(rowsOf(grid), null, 2);
    expectSameGrid(decodeGrid(spaced), grid);
    const floaty = encodeGrid(grid).replace('15', '1.5e1').replace('[3,', '[3.0,');
    expectSameGrid(decodeGrid(floaty), grid);
  });

  it('rejects anything that is not 64 rows of 64 integers 0..15, naming where', () => {
    const good = rowsOf(createGrid(1));
    const cases: [unknown, RegExp][] = [
      [good.slice(1), /expected 64 rows, got 63/],
      [[...good.slice(0, 63), good[0]!.slice(1)], /grid\[63\]: expected 64 colours, got 63/],
      [good.map((row, y) => (y === 2 ? row.map((v, x) => (x === 7 ? 16 : v)) : row)), /grid\[2\]\[7\].*got 16/],
      [good.map((row, y) => (y === 0 ? row.map((v, x) => (x === 0 ? -1 : v)) : row)), /grid\[0\]\[0\].*got -1/],
      [good.map((row, y) => (y === 0 ? row.map((v, x) => (x === 0 ? 2.5 : v)) : row)), /got 2\.5/],
      [good.map((row, y) => (y === 1 ? row.map((v, x) => (x === 1 ? '3' : v)) : row)), /the string "3"/],
      [good.map((row, y) => (y === 4 ? null : row)), /grid\[4\]: expected a row/],
      [{}, /expected an array of 64 rows/],
    ];
    for (const [value, message] of cases) {
      expect(() => decodeGrid(JSON.stringify(value))).toThrow(message);
      expect(() => gridFromRows(value)).toThrow(GridCodecError);
    }
    expect(() => decodeGrid('[[1,2')).toThrow(/not valid JSON/);
    expect(() => decodeFrames('[]')).toThrow(/at least one grid/);
  });

  it('rejects random corruptions of a valid grid text without throwing anything but a codec error', () => {
    const text = encodeGrid(createGrid(9));
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.string({ minLength: 1, maxLength: 3 }), (pos, insert) => {
        const corrupted = text.slice(0, pos) + insert + text.slice(pos + 1);
        try {
          const grid = decodeGrid(corrupted);
          // Some corruptions are still a valid grid (a digit replaced by a digit): then it must match the JSON reading.
          expectSameGrid(grid, gridFromRows(JSON.parse(corrupted)));
        } catch (error) {
          expect(error).toBeInstanceOf(GridCodecError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to encode a grid of the wrong size or with a colour above 15', () => {
    expect(() => encodeGrid(new Uint8Array(10))).toThrow(/4096 cells/);
    const bad = createGrid();
    bad[64 * 3 + 2] = 16;
    expect(() => encodeGrid(bad)).toThrow(/cell \(2, 3\) holds 16/);
  });

  it('finds a bad colour in a row that equals the row above when compared as doubles (-0 against +0, NaN)', () => {
    // Rows are compared 8 cells at a time as doubles: 128 in the sign byte of a zero group makes -0,
    // which equals +0, and 0xf8,0x7f there make NaN. Either must still be caught, wherever the sign is.
    const signByte = new Uint8Array(new Float64Array([-0]).buffer).indexOf(0x80);
    const negativeZero = createGrid();
    negativeZero[64 * 5 + signByte] = 128;
    expect(() => encodeGrid(negativeZero)).toThrow(new RegExp(`cell \\(${signByte}, 5\\) holds 128`));
    const notANumber = createGrid();
    const nan = new Uint8Array(new Float64Array([NaN]).buffer);
    for (const y of [8, 9]) notANumber.set(nan, 64 * y + 16);
    expect(() => encodeGrid(notANumber)).toThrow(/cell \(\d+, 8\) holds \d+/);
  });
});
