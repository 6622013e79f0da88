/**
 * API keys to users. Keys are compared as SHA-256 digests with timingSafeEqual against every
 * configured key, so the time taken says nothing about how much of a guess was right. Without
 * configured keys every non-empty key is its own anonymous user; a key is never echoed.
 *
 * Anonymous keys (GET /api/games/anonkey, which the official toolkit calls when it has no key) are a
 * random nonce and its HMAC under a secret the service's backends share: any backend accepts them, also
 * when the server has a fixed list of keys, and issuing them keeps nothing in memory.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '../protocol/index.ts';

export interface UserIdentity {
  user_name: string;
  user_id: string;
}

/** Who is calling: the identity shown on cards and the owner token cards and sessions are scoped to. */
export interface Caller {
  readonly identity: UserIdentity;
  /** Hex SHA-256 of the key: scopes cards and sessions to the key that opened them. */
  readonly owner: string;
}

interface KnownKey {
  readonly digest: Buffer;
  readonly caller: Caller;
}

/** How many accepted keys are remembered; a run uses one or a few, so a small cap keeps memory bounded. */
const RECENT_KEYS = 256;

const ANONYMOUS_KEY = /^anon-([0-9a-f]{32})-([0-9a-f]{32})$/;

export class KeyRing {
  private readonly known: readonly KnownKey[] | undefined;
  private readonly anonymousSecret: Uint8Array;
  /**
   * Keys already accepted, to their callers: hashing every request's key cost more than the game step
   * of an action. Only exact, accepted keys hit, so a hit reveals nothing about a guess.
   */
  private readonly recent = new Map<string, Caller>();

  /**
   * `keys` undefined: any non-empty key is accepted as its own anonymous user. `anonymousSecret` signs
   * the anonymous keys this ring hands out; rings given the same secret accept each other's.
   */
  constructor(keys?: ReadonlyMap<string, UserIdentity>, anonymousSecret: Uint8Array = randomBytes(32)) {
    this.anonymousSecret = anonymousSecret;
    this.known =
      keys === undefined
        ? undefined
        : [...keys].map(([key, identity]) => {
            const digest = sha256(key);
            return { digest, caller: { identity: { user_name: identity.user_name, user_id: identity.user_id }, owner: digest.toString('hex') } };
          });
  }

  /** The caller of `key`, or a 401 UNAUTHORIZED ApiError for a missing or unknown key. */
  authenticate(key: string | undefined): Caller {
    if (typeof key !== 'string' || key.length === 0) throw unauthorized();
    const remembered = this.recent.get(key);
    if (remembered !== undefined) return remembered;
    const caller = this.check(key);
    if (this.recent.size >= RECENT_KEYS) this.recent.clear();
    this.recent.set(key, caller);
    return caller;
  }

  /** A new anonymous key that this ring (and any ring with the same secret) accepts. */
  issueAnonymousKey(): string {
    const nonce = randomBytes(16).toString('hex');
    return `anon-${nonce}-${this.signature(nonce)}`;
  }

  private signature(nonce: string): string {
    return createHmac('sha256', this.anonymousSecret).update(nonce).digest('hex').slice(0, 32);
  }

  private isIssuedAnonymousKey(key: string): boolean {
    const parts = ANONYMOUS_KEY.exec(key);
    return parts !== null && timingSafeEqual(Buffer.from(parts[2]!), Buffer.from(this.signature(parts[1]!)));
  }

  private check(key: string): Caller {
    const digest = sha256(key);
    if (this.known === undefined || this.isIssuedAnonymousKey(key)) return anonymousCaller(digest);
    let match: Caller | undefined;
    // No early exit: every configured key is compared whatever matched.
    for (const known of this.known) if (timingSafeEqual(known.digest, digest) && match === undefined) match = known.caller;
    if (match === undefined) throw unauthorized('unknown X-API-Key; send a key this service was configured with');
    return match;
  }
}

/** Remembered only in the capped `recent` map: a stream of made-up keys must not grow the service's memory. */
function anonymousCaller(digest: Buffer): Caller {
  const owner = digest.toString('hex');
  return { identity: { user_name: `anonymous-${owner.slice(0, 8)}`, user_id: owner.slice(0, 16) }, owner };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
