/** How scores, differences and intervals read in every table (terminal, markdown), so they read alike. */
import type { Interval } from './bootstrap.ts';

export const formatScore = (value: number): string => value.toFixed(2);

/** A difference always carries its sign, so +0.00 and −0.00 both read as a difference. */
export const formatSigned = (value: number): string => `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(2)}`;

/** `[low, high]`, or why there is none: a single episode shows no spread, so no interval, never ±0. */
/** Dollars to the hundredth of a cent; `unknown` when a call had no price, never a made-up 0. */
export function formatCost(dollars: number | null): string {
  return dollars === null ? 'unknown' : dollars.toFixed(4);
}

export function formatInterval(interval: Interval | null, signed = false): string {
  if (interval === null) return 'n/a (< 2 episodes)';
  const f = signed ? formatSigned : formatScore;
  return `[${f(interval.low)}, ${f(interval.high)}]`;
}

/** A count with thousands separators (1,234,567), the same on every machine whatever its locale. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** Signed dollars (+0.0123, −0.0123), or `unknown` when either side's cost is unknown. */
export function formatSignedCost(dollars: number | null): string {
  return dollars === null ? 'unknown' : `${dollars < 0 ? '−' : '+'}${Math.abs(dollars).toFixed(4)}`;
}

/** A signed count with thousands separators (+1,234, −56). */
export function formatSignedCount(value: number): string {
  return `${value < 0 ? '−' : '+'}${formatCount(Math.abs(value))}`;
}
