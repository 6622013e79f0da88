/**
 * Card ids and session guids: uuid v4 shaped, drawn from a seeded generator so a service built with
 * the same seed hands out the same ids in the same order (reproducible tests and recordings).
 */
import { randomBytes } from 'node:crypto';

/** Produces uuid v4 shaped ids from a 128-bit xoshiro128** state. */
export class SeededIdGenerator {
  private readonly state: Uint32Array;

  /** A numeric seed gives a fixed sequence; no seed draws the state from the OS. */
  constructor(seed?: number) {
    this.state = seed === undefined ? stateFromOs() : stateFromSeed(seed);
  }

  /** The next id, e.g. `3f6c0a4e-8d1b-4c2a-9e77-0b5f1d2c3a4b`. */
  nextUuid(): string {
    // Version 4 in the high nibble of byte 6, variant 10xx in byte 8.
    const first = this.next();
    const second = (this.next() & 0xffff0fff) | 0x00004000;
    const third = (this.next() & 0x3fffffff) | 0x80000000;
    const fourth = this.next();
    const hex = [first, second, third, fourth].map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  }

  private next(): number {
    const state = this.state; // always four words
    const s0 = state[0]!;
    const s1 = state[1]!;
    const s2 = state[2]!;
    const s3 = state[3]!;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
    const t = s1 << 9;
    const next2 = s2 ^ s0;
    const next3 = s3 ^ s1;
    const next1 = s1 ^ next2;
    const next0 = s0 ^ next3;
    state.set([next0, next1, next2 ^ t, rotl(next3, 11)]);
    return result >>> 0;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

function stateFromOs(): Uint32Array {
  const state = new Uint32Array(randomBytes(16).buffer.slice(0, 16));
  if (state.every((w) => w === 0)) state[0] = 1;
  return state;
}

/** splitmix32 spreads one number over the four state words (never all zero). */
function stateFromSeed(seed: number): Uint32Array {
  let x = (Math.trunc(seed) ^ Math.trunc(seed / 0x100000000)) >>> 0;
  const state = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    state[i] = (z ^ (z >>> 16)) >>> 0;
  }
  if (state.every((w) => w === 0)) state[0] = 1;
  return state;
}
