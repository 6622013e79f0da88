/**
 * Sticky routing as the hosted load balancer does it (SPEC §7): a request without a valid affinity
 * cookie goes to the next backend round robin and starts an affinity; a request with one goes to that
 * affinity's backend. With rotation, every K responses of an affinity carry a new cookie value (a new
 * generation); values of the last AFFINITY_GRACE_GENERATIONS generations still route, older ones count
 * as no cookie at all, so a client that replays a stale snapshot loses its backend.
 */
import { randomBytes } from 'node:crypto';

export const AFFINITY_COOKIE = 'AWSALB';
export const AFFINITY_CORS_COOKIE = 'AWSALBCORS';

/**
 * A correct client with up to 64 requests in flight on one jar may send a value up to 64 generations
 * behind (each in-flight response can rotate once); keeping that many never misroutes it.
 */
export const AFFINITY_GRACE_GENERATIONS = 64;

/** Affinities remembered at most; the least recently used go first (cookieless clients make one each). */
export const MAX_AFFINITIES = 100_000;

const COOKIE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface Affinity {
  readonly id: string;
  readonly backend: number;
  generation: number;
  responses: number;
}

export class AffinityRouter {
  private readonly affinities = new Map<string, Affinity>();
  private nextBackend = 0;

  constructor(
    private readonly backendCount: number,
    /** Rotate the value every this many responses; undefined or 0: never. */
    private readonly rotateEvery?: number,
  ) {
    if (!Number.isInteger(backendCount) || backendCount < 1) throw new RangeError(`backend count must be a positive integer, got ${backendCount}`);
    if (rotateEvery !== undefined && (!Number.isInteger(rotateEvery) || rotateEvery < 0))
      throw new RangeError(`rotateAffinity must be a non-negative integer, got ${rotateEvery}`);
  }

  /** The affinity of a request's Cookie header: the one its cookie names, else a new one. */
  resolve(cookieHeader: string | undefined): Affinity {
    for (const value of affinityCookieValues(cookieHeader)) {
      const known = this.lookup(value);
      if (known !== undefined) return known;
    }
    return this.create();
  }

  /** Counts one response of the affinity, rotating when due; returns the value the response carries. */
  respond(affinity: Affinity): string {
    affinity.responses++;
    if (this.rotateEvery && affinity.responses % this.rotateEvery === 0) affinity.generation++;
    return cookieValue(affinity);
  }

  /** The Set-Cookie header values for a response carrying `value`. */
  static setCookieHeaders(value: string, now = Date.now()): string[] {
    // No Secure: the server speaks plain http on loopback, and clients drop Secure cookies there.
    const expires = new Date(now + COOKIE_LIFETIME_MS).toUTCString();
    return [`${AFFINITY_COOKIE}=${value}; Expires=${expires}; Path=/`, `${AFFINITY_CORS_COOKIE}=${value}; Expires=${expires}; Path=/`];
  }

  get size(): number {
    return this.affinities.size;
  }

  private lookup(value: string): Affinity | undefined {
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const affinity = this.affinities.get(value.slice(0, dot));
    if (affinity === undefined) return undefined;
    const generation = parseGeneration(value.slice(dot + 1));
    if (generation === undefined) return undefined;
    const age = affinity.generation - generation;
    if (age < 0 || age >= AFFINITY_GRACE_GENERATIONS) return undefined;
    // Re-insert to keep the map in least-recently-used order for eviction.
    this.affinities.delete(affinity.id);
    this.affinities.set(affinity.id, affinity);
    return affinity;
  }

  private create(): Affinity {
    const affinity: Affinity = { id: randomBytes(16).toString('base64url'), backend: this.nextBackend, generation: 0, responses: 0 };
    this.nextBackend = (this.nextBackend + 1) % this.backendCount;
    this.affinities.set(affinity.id, affinity);
    if (this.affinities.size > MAX_AFFINITIES) {
      const oldest = this.affinities.keys().next().value;
      if (oldest !== undefined) this.affinities.delete(oldest);
    }
    return affinity;
  }
}

function cookieValue(affinity: Affinity): string {
  return `${affinity.id}.${affinity.generation.toString(36)}`;
}

function parseGeneration(text: string): number | undefined {
  if (!/^[0-9a-z]{1,10}$/.test(text)) return undefined;
  return parseInt(text, 36);
}

/** Values of the affinity cookies in a Cookie header, AWSALB first. */
export function affinityCookieValues(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  const main: string[] = [];
  const cors: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === AFFINITY_COOKIE) main.push(value);
    else if (name === AFFINITY_CORS_COOKIE) cors.push(value);
  }
  return [...main, ...cors];
}
