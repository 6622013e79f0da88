/**
 * Timing helpers for the bench: warm up, then time several rounds, because a shared 2-core machine is
 * noisy and one long loop mixes JIT warm-up and neighbours' load into the figure. Single-threaded micro
 * figures use this process's CPU time, which other processes' load barely moves.
 */
import { readFileSync } from 'node:fs';
export interface CallTiming {
  /** µs per call in the median round. */
  median: number;
  /**
   * µs per call in the fastest round. Load on this VM only ever adds time, and for minutes at a time it
   * runs everything up to twice as slow; the fastest of many short rounds is what the code itself costs
   * (the estimator Python's timeit recommends for the same reason).
   */
  fastest: number;
}

export function timeCalls(fn: () => unknown, options: { callsPerRound?: number; rounds?: number } = {}): CallTiming {
  const [timing] = timeInterleaved([fn], options);
  return timing;
}

/**
 * Times several functions in interleaved rounds (round 1 of each, then round 2 of each, …), so each
 * one's rounds are spread over the whole measurement: this machine runs slow for seconds at a time,
 * and rounds taken back to back can all fall inside one slow stretch. One timing per function, in
 * their order (a tuple of as many as a tuple of functions).
 */
export function timeInterleaved<const Fns extends readonly (() => unknown)[]>(
  fns: Fns,
  options: { callsPerRound?: number; rounds?: number } = {},
): { -readonly [K in keyof Fns]: CallTiming } {
  const callsPerRound = options.callsPerRound ?? 2000;
  const rounds = options.rounds ?? 9;
  for (const fn of fns) for (let i = 0; i < callsPerRound; i++) fn(); // warm-up: let the JIT settle
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, f) => {
      const start = cpuMicroseconds();
      for (let i = 0; i < callsPerRound; i++) fn();
      samples[f]!.push((cpuMicroseconds() - start) / callsPerRound);
    });
  }
  return samples.map((perRound) => ({ median: median(perRound), fastest: Math.min(...perRound) })) as { -readonly [K in keyof Fns]: CallTiming };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100) of a sample, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** CPU time of this process (user + system), in microseconds. */
export function cpuMicroseconds(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

const MAIN_THREAD_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * Milliseconds the main thread has spent on a CPU (Linux's schedstat, in nanoseconds), or undefined
 * where the kernel does not say. Unlike the event loop's busy time, it leaves out the time the thread
 * was ready to run but waited for a CPU another process held.
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    const nanoseconds = Number(readFileSync(MAIN_THREAD_SCHEDSTAT, 'utf8').split(' ')[0]);
    // A kernel built without scheduler statistics may keep the file but write zeros in it.
    return nanoseconds > 0 ? nanoseconds / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
