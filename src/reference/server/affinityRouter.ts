/**
 * Sticky routing as the hosted load balancer does it (docs/protocol.md §7): a request without a valid affinity
 * cookie goes to the next backend round robin and starts an affinity; a request with one goes to that
 * affinity's backend. With rotation, every K responses of an affinity carry a new cookie value (a new
 * generation). A value is stale, and counts as no cookie at all, once it is both more than
 * AFFINITY_GRACE_GENERATIONS generations old and was superseded longer ago than the grace period. The
 * grace is the hosted balancer's by default (a day: a client that re-applies the cookie it got at open
 * keeps its card for hours there); a short one makes a client that replays an old snapshot lose its
 * backend, which tests of clients use. A correct client never does, whatever the grace.
 */
import { randomUUID } from 'node:crypto';

export const AFFINITY_COOKIE = 'AWSALB';
export const AFFINITY_CORS_COOKIE = 'AWSALBCORS';

/**
 * Values this many generations behind the newest, or fewer, always route. A count of generations keeps
 * a correct client routed under any grace: with 64 requests in flight on one jar, one request can wait
 * in a connection queue while the others go round trip after trip, and arrive many generations late
 * with the newest value its jar held when it was sent.
 */
export const AFFINITY_GRACE_GENERATIONS = 64;

/**
 * Older values still route for this long after they were superseded: the default stickiness duration
 * of the hosted service's balancer (an AWS application load balancer: one day).
 */
export const AFFINITY_DEFAULT_GRACE_MS = 24 * 60 * 60 * 1000;

/** Affinities remembered at most; the least recently used go first (cookieless clients make one each). */
export const MAX_AFFINITIES = 100_000;

const COOKIE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
// Rotation times are kept at a resolution of a 256th of the grace (100 ms at least), so a busy affinity
// keeps at most ~256 marks however long the grace.
const MARKS_PER_GRACE = 256;
const MIN_MARK_RESOLUTION_MS = 100;

export interface Affinity {
  readonly id: string;
  readonly backend: number;
  generation: number;
  responses: number;
  /** When generations were issued, oldest first; the first mark is the last one before the grace window. */
  readonly marks: { generation: number; at: number }[];
}

export class AffinityRouter {
  private readonly affinities = new Map<string, Affinity>();
  private nextBackend = 0;
  private readonly markResolutionMs: number;

  constructor(
    private readonly backendCount: number,
    /** Rotate the value every this many responses; undefined or 0: never. */
    private readonly rotateEvery?: number,
    private readonly now: () => number = Date.now,
    /** How long a superseded value still routes (beyond the last AFFINITY_GRACE_GENERATIONS). */
    private readonly graceMs: number = AFFINITY_DEFAULT_GRACE_MS,
  ) {
    if (!Number.isInteger(backendCount) || backendCount < 1) throw new RangeError(`backend count must be a positive integer, got ${backendCount}`);
    if (rotateEvery !== undefined && (!Number.isInteger(rotateEvery) || rotateEvery < 0))
      throw new RangeError(`rotateAffinity must be a non-negative integer, got ${rotateEvery}`);
    if (!(graceMs >= 0) || !Number.isFinite(graceMs)) throw new RangeError(`affinity grace must be a finite number of milliseconds ≥ 0, got ${graceMs}`);
    this.markResolutionMs = Math.max(MIN_MARK_RESOLUTION_MS, graceMs / MARKS_PER_GRACE);
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
    if (this.rotateEvery && affinity.responses % this.rotateEvery === 0) {
      affinity.generation++;
      this.mark(affinity);
    }
    return cookieValue(affinity);
  }

  /** The Set-Cookie header values for a response carrying `value`. */
  static setCookieHeaders(value: string, now = Date.now()): string[] {
    // No Secure: the server speaks plain http on loopback, and clients drop Secure cookies there.
    const attributes = `; Expires=${expiresAttribute(now)}; Path=/`;
    return [`${AFFINITY_COOKIE}=${value}${attributes}`, `${AFFINITY_CORS_COOKIE}=${value}${attributes}`];
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
    if (generation === undefined || generation > affinity.generation) return undefined;
    if (affinity.generation - generation > AFFINITY_GRACE_GENERATIONS && !this.recentlySuperseded(affinity, generation)) return undefined;
    // Re-insert to keep the map in least-recently-used order for eviction.
    this.affinities.delete(affinity.id);
    this.affinities.set(affinity.id, affinity);
    return affinity;
  }

  /**
   * Whether `generation` was superseded (generation + 1 issued) within the grace window. A generation
   * without a mark of its own was issued less than the mark resolution after the last mark before it,
   * so the answer errs towards yes by at most that much.
   */
  private recentlySuperseded(affinity: Affinity, generation: number): boolean {
    const horizon = this.now() - this.graceMs;
    const { marks } = affinity;
    let supersededBy: number | undefined;
    for (const mark of marks) {
      if (mark.generation > generation + 1) break;
      supersededBy = mark.at + this.markResolutionMs;
    }
    // Older than every mark kept: issued before the first mark, which is the last one before the window.
    if (supersededBy === undefined) supersededBy = marks[0]?.at ?? -Infinity;
    return supersededBy >= horizon;
  }

  private mark(affinity: Affinity): void {
    const now = this.now();
    const { marks } = affinity;
    const last = marks[marks.length - 1];
    if (last === undefined || now - last.at >= this.markResolutionMs) marks.push({ generation: affinity.generation, at: now });
    // Keep one mark before the window: it proves everything older was superseded long ago.
    const horizon = now - this.graceMs;
    let drop = 0;
    while (drop + 1 < marks.length && marks[drop + 1]!.at < horizon) drop++;
    if (drop > 0) marks.splice(0, drop);
  }

  private create(): Affinity {
    const affinity: Affinity = { id: randomUUID(), backend: this.nextBackend, generation: 0, responses: 0, marks: [] };
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

/**
 * The Expires date of a cookie issued at `now`, formatted once per second: an HTTP date has whole
 * seconds, and formatting one on every answer was a visible share of the server's time per request.
 */
function expiresAttribute(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== expiresCache.second) {
    expiresCache.second = second;
    expiresCache.text = new Date(second * 1000 + COOKIE_LIFETIME_MS).toUTCString();
  }
  return expiresCache.text;
}
const expiresCache = { second: -1, text: '' };
