/** What `buildServer` and `startServer` take; every field optional, defaults chosen for loopback tests. */
import type { Logger } from 'pino';
import type { ReferenceService, ReferenceServiceOptions, UserIdentity } from '../referenceService.ts';
import type { ConnectionLimits } from './connectionLimits.ts';
import type { Dialect } from './dialect.ts';

export interface ServerOptions extends ConnectionLimits {
  /** Pre-built services, one per emulated backend (e.g. with a test clock). Wins over `backendCount`. */
  backends?: ReferenceService[];
  /** How many independent services to build when `backends` is not given. Default 1. */
  backendCount?: number;
  /** Options for the services built from `backendCount`; each gets its own seed derived from `seed`. */
  serviceOptions?: ReferenceServiceOptions;
  /** Accepted keys and who they belong to; without it any non-empty key is accepted (the service decides). */
  keys?: ReadonlyMap<string, UserIdentity>;
  /** Re-issue the affinity cookie with a new value every K responses of one affinity. Default: never. */
  rotateAffinity?: number;
  /** How long a superseded affinity cookie value still routes. Default: a day, as the hosted balancer. */
  affinityGraceMs?: number;
  /** `toolkit`: answer as the official toolkit's sparser reference server does (dialect.ts). Default `arcbench`. */
  dialect?: Dialect;
  /**
   * Serve as the toolkit's server started in competition mode, as Kaggle's gateway runs it: every card
   * opened is a competition card, and one card is opened in the server's life. The toolkit dialect only.
   */
  competition?: boolean;
  /** Requests per minute per key; beyond it 429 RATE_LIMIT_EXCEEDED with Retry-After. Default: unlimited. */
  rateLimitPerMinute?: number;
  /** Answer every Nth request with 429 and `Retry-After: 0`, to test clients' retries deterministically. */
  inject429Every?: number;
  /** Largest accepted request body. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** A pino logger (its key-bearing fields get redacted), or false for none. Default: none. */
  logger?: Logger | false;
  /** How often expired scorecards are swept (auto-close). Default 30 s. */
  sweepIntervalMs?: number;
  /** Clock of the server's own bookkeeping (rate limit, affinity cookie grace). Default Date.now. */
  now?: () => number;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;
