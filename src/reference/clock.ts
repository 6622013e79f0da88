/** Time of the reference service: an injected clock (ms since epoch) and the ISO form of docs/protocol.md §5. */
export type Clock = () => number;

/** ISO 8601 UTC, e.g. `2025-01-01T00:00:00.000Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
