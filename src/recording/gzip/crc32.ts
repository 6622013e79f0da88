/**
 * CRC-32 (the gzip trailer's checksum) kept as the raw register, so that the checksum of a piece of
 * text known only by its own checksum and length can be folded in without its bytes: feeding bytes M
 * of length n from register c gives shift_n(c) XOR crc0(M), where shift_n is feeding n zero bytes (a
 * linear map, applied here with four table look-ups) and crc0(M) is M fed from a zero register.
 * A recording repeats whole rows of grid text, so its checksum is mostly folded, not computed.
 */

/** The register before any byte; the checksum of the bytes fed is `finishCrc(register)`. */
export const CRC_START = 0xffffffff;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

// Every index below is a byte (0..255) into a 256-entry table, or within the bounds given: read with `!`
// (no check in the loop that checksums every recorded byte).

/** The register after feeding `bytes[start, end)`. */
export function crcBytes(register: number, bytes: Uint8Array, start: number, end: number): number {
  let c = register;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c >>> 0;
}

export function finishCrc(register: number): number {
  return ~register >>> 0;
}

/**
 * One table per length, made on first use: recordings fold pieces of about 65 distinct lengths, rows of
 * at most 196 bytes. Found by index up to SHORT_PIECE (a Map look-up for every row was a tenth of the
 * gzip writer), in a Map beyond.
 */
const SHORT_PIECE = 256;
const shortShiftTables: (Uint32Array | undefined)[] = new Array(SHORT_PIECE).fill(undefined);
const longShiftTables = new Map<number, Uint32Array>();

function shiftTableOf(length: number): Uint32Array {
  const known = length < SHORT_PIECE ? shortShiftTables[length] : longShiftTables.get(length);
  if (known !== undefined) return known;
  const table = shiftTable(length);
  if (length < SHORT_PIECE) shortShiftTables[length] = table;
  else longShiftTables.set(length, table);
  return table;
}

/** The register after feeding bytes whose own crc0 is `pieceCrc0` and whose length is `length`. */
export function crcFold(register: number, length: number, pieceCrc0: number): number {
  const table = shiftTableOf(length);
  return (
    (table[register & 0xff]! ^
      table[256 + ((register >>> 8) & 0xff)]! ^
      table[512 + ((register >>> 16) & 0xff)]! ^
      table[768 + (register >>> 24)]! ^
      pieceCrc0) >>>
    0
  );
}

/** shift_length as four 256-entry tables, one per byte of the register, built from the 32 unit vectors. */
function shiftTable(length: number): Uint32Array {
  const images = new Uint32Array(32);
  for (let bit = 0; bit < 32; bit++) {
    let c = (1 << bit) >>> 0;
    for (let i = 0; i < length; i++) c = TABLE[c & 0xff]! ^ (c >>> 8);
    images[bit] = c >>> 0;
  }
  const table = new Uint32Array(1024);
  for (let part = 0; part < 4; part++) {
    for (let v = 1; v < 256; v++) {
      const lowest = 31 - Math.clz32(v & -v);
      table[part * 256 + v] = table[part * 256 + (v & (v - 1))]! ^ images[part * 8 + lowest]!;
    }
  }
  return table;
}
