/**
 * A gzip stream (RFC 1952) of deflate blocks with the fixed Huffman code (RFC 1951 §3.2.6), written
 * symbol by symbol: the caller decides every literal and every copy (length, distance), so a writer
 * that knows its text's structure compresses without searching for matches. Any gzip reader (zcat,
 * node:zlib, a browser's DecompressionStream) reads the result.
 *
 * `syncFlush` ends the block and byte-aligns the stream with an empty stored block (what zlib's
 * Z_SYNC_FLUSH does), so everything before it decodes from the bytes handed out so far: a reader of a
 * file still being written sees every line up to the last flush.
 */

const MAX_MATCH = 258;
const MIN_MATCH = 3;
export const MAX_DISTANCE = 32768;

/** Literal/length symbol → its code, bit-reversed for LSB-first output, and the code's length. */
const SYMBOL_CODE = new Uint16Array(288);
const SYMBOL_BITS = new Uint8Array(288);

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** Per match length 3..258: its length code and extra bits as one bit string, and how many bits. */
const LENGTH_VALUE = new Uint32Array(MAX_MATCH + 1);
const LENGTH_BITS = new Uint8Array(MAX_MATCH + 1);
/** Distance code of distances 1..256 by `distance - 1`, and of larger ones by `(distance - 1) >> 7`. */
const DISTANCE_CODE_SMALL = new Uint8Array(256);
const DISTANCE_CODE_LARGE = new Uint8Array(256);

function reverseBits(value: number, bits: number): number {
  let reversed = 0;
  for (let i = 0; i < bits; i++) reversed |= ((value >>> i) & 1) << (bits - 1 - i);
  return reversed;
}

(function buildTables() {
  for (let symbol = 0; symbol < 288; symbol++) {
    const [code, bits] =
      symbol < 144 ? [0x30 + symbol, 8] : symbol < 256 ? [0x190 + symbol - 144, 9] : symbol < 280 ? [symbol - 256, 7] : [0xc0 + symbol - 280, 8];
    SYMBOL_CODE[symbol] = reverseBits(code, bits);
    SYMBOL_BITS[symbol] = bits;
  }
  for (let length = MIN_MATCH; length <= MAX_MATCH; length++) {
    let index = LENGTH_BASE.length - 1;
    while (LENGTH_BASE[index]! > length) index--;
    const symbol = 257 + index;
    LENGTH_VALUE[length] = SYMBOL_CODE[symbol]! | ((length - LENGTH_BASE[index]!) << SYMBOL_BITS[symbol]!);
    LENGTH_BITS[length] = SYMBOL_BITS[symbol]! + LENGTH_EXTRA[index]!;
  }
  for (let code = 0; code < DISTANCE_BASE.length; code++) {
    const end = code + 1 < DISTANCE_BASE.length ? DISTANCE_BASE[code + 1]! : MAX_DISTANCE + 1;
    for (let distance = DISTANCE_BASE[code]!; distance < end; distance++) {
      if (distance <= 256) DISTANCE_CODE_SMALL[distance - 1] = code;
      else DISTANCE_CODE_LARGE[(distance - 1) >> 7] = code;
    }
  }
})();

/** Distance codes 0..29, bit-reversed (fixed distance codes are 5 bits). */
const reverseFive = Uint8Array.from({ length: 30 }, (_, code) => reverseBits(code, 5));

// Symbols, lengths and distances index tables sized for them (copy() checks a distance's range), so the
// per-byte code reads them with `!`.

const GZIP_HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];

export class FixedHuffmanGzip {
  /** Compressed bytes not yet taken; `length` of them are complete. */
  // Small at first: most recordings are short, and a batch goes to the file at 64 KB.
  private bytes = new Uint8Array(8 * 1024);
  private length = 0;
  /** Bits not yet a whole byte (fewer than 8), lowest first. */
  private bitBuffer = 0;
  private bitCount = 0;
  /** Uncompressed bytes so far, the pending copy included: where the next byte lands. */
  private written = 0;
  /** A copy not yet emitted, extended while the next copy continues it at the same distance. */
  private pendingLength = 0;
  private pendingDistance = 0;

  constructor() {
    this.start();
  }

  /** A new stream in the same buffer (whose size the last stream grew): nothing is allocated. */
  reset(): void {
    this.length = 0;
    this.bitBuffer = 0;
    this.bitCount = 0;
    this.written = 0;
    this.pendingLength = 0;
    this.pendingDistance = 0;
    this.start();
  }

  private start(): void {
    for (const byte of GZIP_HEADER) this.bytes[this.length++] = byte;
    this.startBlock(false);
  }

  get position(): number {
    return this.written;
  }

  /** Compressed bytes ready so far (a view; copy or write them out before the next call). */
  completeBytes(): Uint8Array {
    this.emitPending();
    return this.bytes.subarray(0, this.length);
  }

  /** Forgets the bytes handed out by completeBytes(). */
  consumed(): void {
    this.length = 0;
  }

  literals(source: Uint8Array, start: number, end: number): void {
    this.emitPending();
    this.reserve(((end - start) * 9) / 8 + 8);
    for (let i = start; i < end; i++) {
      const byte = source[i]!;
      this.put(SYMBOL_CODE[byte]!, SYMBOL_BITS[byte]!);
    }
    this.written += end - start;
  }

  literal(byte: number): void {
    this.emitPending();
    this.reserve(4);
    this.put(SYMBOL_CODE[byte]!, SYMBOL_BITS[byte]!);
    this.written += 1;
  }

  /**
   * `length` bytes (at least 3) repeated from `distance` bytes back (1..32768). A copy that continues
   * the pending one at the same distance extends it, so runs of rows become a few long copies.
   */
  copy(length: number, distance: number): void {
    if (length < MIN_MATCH || distance < 1 || distance > MAX_DISTANCE || distance > this.written) {
      throw new RangeError(`deflate copy of ${length} bytes from ${distance} back at ${this.written}: out of range`);
    }
    if (this.pendingLength > 0 && distance !== this.pendingDistance) this.emitPending();
    this.pendingLength += length;
    this.pendingDistance = distance;
    this.written += length;
  }

  /** Everything so far decodes from completeBytes(): end the block, align with an empty stored block, start another. */
  syncFlush(): void {
    this.emitPending();
    this.reserve(16);
    this.put(SYMBOL_CODE[256]!, SYMBOL_BITS[256]!);
    this.put(0, 3); // not final, stored
    this.alignToByte();
    for (const byte of [0, 0, 0xff, 0xff]) this.bytes[this.length++] = byte;
    this.startBlock(false);
  }

  /** Ends the stream: the last block, then the trailer with the checksum and size of all bytes fed. */
  finish(crc: number): Uint8Array {
    this.emitPending();
    this.reserve(24);
    this.put(SYMBOL_CODE[256]!, SYMBOL_BITS[256]!);
    this.startBlock(true);
    this.put(SYMBOL_CODE[256]!, SYMBOL_BITS[256]!);
    this.alignToByte();
    const size = this.written % 2 ** 32;
    for (const value of [crc, size]) for (let shift = 0; shift < 32; shift += 8) this.bytes[this.length++] = (value >>> shift) & 0xff;
    return this.bytes.subarray(0, this.length);
  }

  private startBlock(final: boolean): void {
    this.put(final ? 0b011 : 0b010, 3); // BFINAL, then BTYPE 01 (fixed Huffman), lowest bit first
  }

  /** Emits the pending copy in pieces of at most 258, never leaving a last piece under 3. */
  private emitPending(): void {
    let left = this.pendingLength;
    if (left === 0) return;
    const distance = this.pendingDistance;
    const distanceCode = distance <= 256 ? DISTANCE_CODE_SMALL[distance - 1]! : DISTANCE_CODE_LARGE[(distance - 1) >> 7]!;
    const distanceValue = reverseFive[distanceCode]! | ((distance - DISTANCE_BASE[distanceCode]!) << 5);
    const distanceBits = 5 + DISTANCE_EXTRA[distanceCode]!;
    this.reserve(Math.ceil(left / MAX_MATCH) * 5 + 8);
    while (left > 0) {
      const piece = left <= MAX_MATCH ? left : left - MAX_MATCH < MIN_MATCH ? left - MIN_MATCH : MAX_MATCH;
      this.put(LENGTH_VALUE[piece]!, LENGTH_BITS[piece]!);
      this.put(distanceValue, distanceBits);
      left -= piece;
    }
    this.pendingLength = 0;
  }

  /** Appends `count` bits of `value` (at most 24), lowest first. */
  private put(value: number, count: number): void {
    let buffer = this.bitBuffer | (value << this.bitCount);
    let bits = this.bitCount + count;
    while (bits >= 8) {
      this.bytes[this.length++] = buffer & 0xff;
      buffer >>>= 8;
      bits -= 8;
    }
    this.bitBuffer = buffer;
    this.bitCount = bits;
  }

  private alignToByte(): void {
    if (this.bitCount > 0) this.bytes[this.length++] = this.bitBuffer & 0xff;
    this.bitBuffer = 0;
    this.bitCount = 0;
  }

  /** Room for `more` bytes; the buffer doubles when a batch outgrows it. */
  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + Math.ceil(more)));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}
