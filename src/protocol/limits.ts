/** Limits of docs/protocol.md §2 and §8. */
export const MAX_JSON_FIELD_BYTES = 16 * 1024; // reasoning and opaque, measured serialized (UTF-8)
export const MAX_LEVEL_COUNTER = 254; // levels_completed and win_levels
export const COORDINATE_MAX = 63;
/**
 * The hosted service closes a card after this long without a counted action (docs/protocol.md §5);
 * the reference service does the same by default, and the runner warns and counts with it.
 */
export const HOSTED_IDLE_CLOSE_MINUTES = 15;
export const DEFAULT_IDLE_CLOSE_MS = HOSTED_IDLE_CLOSE_MINUTES * 60 * 1000;
export const DEFAULT_MAX_OPEN_MS = 24 * 60 * 60 * 1000;
/** How long a closed scorecard stays readable before the reference service forgets it. */
export const DEFAULT_CLOSED_RETENTION_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_FPS = 5;
/** Hosted service: 600 requests per minute per key (docs/protocol.md §8). */
export const HOSTED_RATE_LIMIT_PER_MINUTE = 600;
