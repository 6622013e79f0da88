/**
 * metadata.json's date_downloaded (src/games/downloadDate.ts): written back as the toolkit's server writes it
 * (pydantic: each expected text below is what pydantic 2 gave for the same input through the toolkit's
 * EnvironmentInfo), read as an instant where arcbench shows one, and refused when it is no date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downloadDateAt, downloadDateInstant, downloadDateText, parseDownloadDate } from '../src/games/downloadDate.ts';

const asTheToolkitWritesIt: [string, string][] = [
  ['2024-01-19T10:00:00Z', '2024-01-19T10:00:00Z'],
  ['2024-01-19T10:00:00.000Z', '2024-01-19T10:00:00Z'],
  ['2024-01-19T10:00:00.5Z', '2024-01-19T10:00:00.500000Z'],
  ['2024-01-19T10:00:00.123Z', '2024-01-19T10:00:00.123000Z'],
  ['2024-01-19T10:00:00.1234567Z', '2024-01-19T10:00:00.123456Z'],
  ['2024-01-19T10:00:00,5Z', '2024-01-19T10:00:00.500000Z'],
  ['2024-01-19T10:00:00.000001Z', '2024-01-19T10:00:00.000001Z'],
  ['2024-01-19T10:00:00+02:00', '2024-01-19T10:00:00+02:00'],
  ['2024-01-19T10:00:00+0200', '2024-01-19T10:00:00+02:00'],
  ['2024-01-19T10:00:00-05:30', '2024-01-19T10:00:00-05:30'],
  ['2024-01-19T10:00:00+00:00', '2024-01-19T10:00:00Z'],
  ['2024-01-19T10:00:00-00:00', '2024-01-19T10:00:00Z'],
  ['2024-01-19T10:00:00', '2024-01-19T10:00:00'],
  ['2024-01-19', '2024-01-19T00:00:00'],
  ['2024-01-19 10:00:00Z', '2024-01-19T10:00:00Z'],
  ['2024-01-19t10:00:00z', '2024-01-19T10:00:00Z'],
  ['2024-01-19T10:00Z', '2024-01-19T10:00:00Z'],
];

describe('download dates', () => {
  it.each(asTheToolkitWritesIt)('%s is written %s', (written, shown) => {
    expect(downloadDateText(parseDownloadDate(written)!)).toBe(shown);
  });

  it('refuses what pydantic refuses: no such day, an hour alone, an offset past 23:59, no date at all', () => {
    for (const text of ['2024-02-30T10:00:00Z', '2024-01-19T10Z', '2024-01-19T10:00:00+24:00', 'yesterday', '2024-1-19', ''])
      expect(parseDownloadDate(text), text).toBeUndefined();
  });

  it('reads an instant in UTC with milliseconds, a time without an offset as UTC', () => {
    expect(downloadDateInstant(parseDownloadDate('2024-01-19T10:00:00Z')!)).toBe('2024-01-19T10:00:00.000Z');
    expect(downloadDateInstant(parseDownloadDate('2024-01-19T12:30:00.1239+02:30')!)).toBe('2024-01-19T10:00:00.123Z');
    expect(downloadDateInstant(parseDownloadDate('2024-01-19')!)).toBe('2024-01-19T00:00:00.000Z');
  });

  it('writes back whatever it reads as it read it, and reads the same instant as Date does', () => {
    const offsetArb = fc.oneof(
      fc.constant(''),
      fc.constant('Z'),
      fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
    );
    const dateArb = fc.tuple(
      fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
      fc.integer({ min: 0, max: 999_999 }),
      offsetArb,
    );
    fc.assert(
      fc.property(dateArb, ([date, micro, offset]) => {
        const text = `${date.toISOString().slice(0, 19)}.${String(micro).padStart(6, '0')}${offset}`;
        const parsed = parseDownloadDate(text)!;
        expect(parseDownloadDate(downloadDateText(parsed))).toEqual(parsed);
        const expected = new Date(`${text.slice(0, 23)}${offset === '' || offset === '+00:00' || offset === '-00:00' ? 'Z' : offset}`).toISOString();
        expect(downloadDateInstant(parsed)).toBe(expected);
      }),
    );
  });

  it('dates an instant in UTC to the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(downloadDateInstant(downloadDateAt(ms))).toBe(new Date(ms).toISOString());
        expect(downloadDateText(downloadDateAt(ms))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}000)?Z$/);
      }),
    );
  });
});

const pad = (n: number) => String(n).padStart(2, '0');
