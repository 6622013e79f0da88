/**
 * Grids across the agent protocol (docs/agent-protocol.md §3): one hexadecimal digit per cell,
 * row-major, 4096 digits a grid. Chosen over base64 because a reader in any language decodes it a
 * character at a time without a library, and it is shorter than base64 of one byte per cell.
 */
import { ArcbenchError } from '../errors.ts';
import { COLOUR_COUNT, GRID_CELLS, type Grid } from './grid.ts';

const DIGITS = '0123456789abcdef';
const DIGIT_CODES = Uint8Array.from(DIGITS, (digit) => digit.charCodeAt(0));

/** Character code → cell value, 255 for a character that is not a hex digit. */
const VALUE_OF_CODE = (() => {
  const table = new Uint8Array(128).fill(255);
  for (let value = 0; value < COLOUR_COUNT; value++) {
    table[DIGITS.charCodeAt(value)] = value;
    table[DIGITS.toUpperCase().charCodeAt(value)] = value;
  }
  return table;
})();

export class HexGridError extends ArcbenchError {
  constructor(message: string) {
    super('AGENT_PROTOCOL_GRID', message);
  }
}

/** The grid as 4096 hex digits. */
export function encodeHexGrid(grid: Grid): string {
  const text = Buffer.allocUnsafe(GRID_CELLS);
  writeHexGrid(grid, text, 0);
  return text.toString('latin1', 0, GRID_CELLS);
}

/** Writes the grid's 4096 hex digits (ASCII) into `target` at `offset`, as `encodeHexGrid` spells them. */
export function writeHexGrid(grid: Grid, target: Uint8Array, offset: number): void {
  if (grid.length !== GRID_CELLS) throw new HexGridError(`a grid has ${GRID_CELLS} cells, this one ${grid.length}`);
  for (let i = 0; i < GRID_CELLS; i++) {
    const cell = grid[i]!;
    if (cell >= COLOUR_COUNT) throw new HexGridError(`cell ${i} holds colour ${cell}; colours are 0..${COLOUR_COUNT - 1}`);
    target[offset + i] = DIGIT_CODES[cell]!;
  }
}

/** The grid of 4096 hex digits (either case); anything else is a HexGridError naming what is wrong. */
export function decodeHexGrid(text: string): Grid {
  if (typeof text !== 'string' || text.length !== GRID_CELLS) {
    const found = typeof text === 'string' ? `${text.length} characters` : typeof text;
    throw new HexGridError(`a grid is a string of ${GRID_CELLS} hex digits, found ${found}`);
  }
  const grid = new Uint8Array(GRID_CELLS);
  for (let i = 0; i < GRID_CELLS; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUE_OF_CODE[code]! : 255;
    if (value === 255) throw new HexGridError(`character ${i} of a grid is ${JSON.stringify(text[i])}, not a hex digit`);
    grid[i] = value;
  }
  return grid;
}
