/**
 * The services behind the server: one per emulated backend (docs/protocol.md §7). Each holds its own scorecards and
 * sessions, so a request routed to the wrong one fails exactly as on the hosted service.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { ReferenceService } from '../referenceService.ts';
import { competitionRulesOf } from './dialect.ts';
import type { ServerOptions } from './options.ts';

// Far apart so that seeds of neighbouring backends never coincide with another run's base seed + 1.
const SEED_STRIDE = 7919;

/** The services, built as the options say, or those given, which must play competition cards by the dialect's rules. */
export function createBackends(options: ServerOptions): ReferenceService[] {
  const competitionRules = competitionRulesOf(options.dialect, options.competition);
  if (options.backends !== undefined) {
    if (options.backends.length === 0) throw new RangeError('backends: give at least one ReferenceService');
    const other = options.backends.find((backend) => backend.competitionRules !== competitionRules);
    if (other !== undefined)
      throw new RangeError(`backends: this server needs services built with competitionRules '${competitionRules}', got '${other.competitionRules}'`);
    return options.backends;
  }
  const count = options.backendCount ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`backendCount must be a positive integer, got ${count}`);
  const service = options.serviceOptions ?? {};
  // A distinct seed per backend: ids drawn from the seed must never collide across backends.
  const baseSeed = service.seed ?? randomInt(0, 2 ** 31);
  const keys = options.keys ?? service.keys;
  // One secret for all: an anonymous key one backend hands out works on every other, as behind the balancer.
  const anonymousKeySecret = service.anonymousKeySecret ?? randomBytes(32);
  return Array.from(
    { length: count },
    (_, index) => new ReferenceService({ ...service, ...(keys ? { keys } : {}), anonymousKeySecret, competitionRules, seed: baseSeed + index * SEED_STRIDE }),
  );
}
