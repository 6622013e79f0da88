/**
 * A fixed CPU-bound workload timed before and after the suites, so a reader can tell a slow machine
 * from slow code. On this shared 2-core VM the same code runs up to twice as slow for minutes at a time,
 * with no steal time shown to the guest; when the two readings differ widely, so do the figures between.
 */
import { timeCalls } from './measure.ts';

/** 4,096 numbers as JSON. JSON.parse is native code: its time moves with the machine, not with our JIT. */
const REFERENCE_TEXT = JSON.stringify(Array.from({ length: 64 }, (_, y) => Array.from({ length: 64 }, (_, x) => (x * y) % 16)));

/** µs per JSON.parse of the reference text, median of rounds. */
export function machineSpeedMicroseconds(): number {
  // The median, not the fastest round: this figure is meant to show the machine's state, slow or not.
  return timeCalls(() => JSON.parse(REFERENCE_TEXT), { callsPerRound: 500, rounds: 9 }).median;
}
