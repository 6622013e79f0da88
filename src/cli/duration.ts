/** Durations on the command line: `500ms`, `90s`, `15m`, `24h`, or a bare number of seconds. */
import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A commander argument parser giving milliseconds; `allowZero` admits `0` (e.g. "no grace"). */
export function durationMs(flag: string, allowZero = false) {
  return (text: string): number => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
    const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2] ?? 's']!;
    if (!Number.isFinite(ms) || (allowZero ? ms < 0 : ms <= 0)) {
      throw new InvalidArgumentError(
        `${flag} takes a duration such as 500ms, 90s, 15m or 24h (a bare number is seconds)${allowZero ? ', or 0' : ''}, got "${text}".`,
      );
    }
    return Math.round(ms);
  };
}
