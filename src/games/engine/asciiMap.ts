/**
 * Levels are ASCII maps in template strings. Leading and trailing blank lines and the common
 * indentation are dropped, and short rows are padded with spaces, so maps can be indented in source.
 */
export interface AsciiMap {
  readonly width: number;
  readonly height: number;
  readonly rows: readonly string[];
  /** The cell at (x, y); a space outside the map, as in a short row. */
  at(x: number, y: number): string;
  /** Every (x, y) holding one of `chars`, row-major. */
  find(chars: string): { x: number; y: number; char: string }[];
}

export function parseAsciiMap(text: string): AsciiMap {
  const lines = text.replace(/\r/g, '').split('\n');
  while (lines[0]?.trim() === '') lines.shift();
  while (lines.at(-1)?.trim() === '') lines.pop();
  if (lines.length === 0) throw new Error('a level map is empty; write at least one row of cells');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  const trimmed = lines.map((line) => line.slice(indent).trimEnd());
  const width = Math.max(...trimmed.map((line) => line.length));
  const rows = trimmed.map((line) => line.padEnd(width, ' '));
  return {
    width,
    height: rows.length,
    rows,
    at: (x, y) => rows[y]?.[x] ?? ' ',
    find(chars) {
      const found: { x: number; y: number; char: string }[] = [];
      rows.forEach((row, y) => {
        row.split('').forEach((char, x) => {
          if (chars.includes(char)) found.push({ x, y, char });
        });
      });
      return found;
    },
  };
}

/** Exactly one of `chars` on the map, or an error that names the level problem. */
export function findOne(map: AsciiMap, chars: string, what: string): { x: number; y: number; char: string } {
  const found = map.find(chars);
  const [only] = found;
  if (only === undefined || found.length !== 1)
    throw new Error(`a level needs exactly one ${what} ('${chars}'), found ${found.length}:\n${map.rows.join('\n')}`);
  return only;
}
