/**
 * Cookie jars per scorecard (docs/protocol.md §7). The load balancer of the hosted service pins a scorecard to one
 * backend with cookies it may rotate at any answer, so: one jar per card, shared by all its sessions;
 * every Set-Cookie of every answer of that card (errors included) goes in as it arrives; the jar is read
 * at send time, so the newest value is always the one sent and no earlier snapshot is ever replayed.
 *
 * The jar for an open request is created before the card exists and bound to the card id the answer
 * names. Requests with no card (game list, game lookup) share one transport-level jar.
 */
import { CookieJar } from 'tough-cookie';

/** docs/protocol.md §7: the hosted balancer's affinity cookies are named AWSALB, AWSALBCORS, … */
const AFFINITY_COOKIE_PREFIX = 'AWSALB';

export class CardCookieJars {
  private readonly byCard = new Map<string, CookieJar>();
  readonly general = new CookieJar();

  /** A fresh jar for an open request; bind it once the answer names the card. */
  forOpen(): CookieJar {
    return new CookieJar();
  }

  bind(cardId: string, jar: CookieJar): void {
    this.byCard.set(cardId, jar);
  }

  /** The card's jar, created on first use: a card opened elsewhere still gets one shared jar here. */
  forCard(cardId: string): CookieJar {
    let jar = this.byCard.get(cardId);
    if (jar === undefined) {
      jar = new CookieJar();
      this.byCard.set(cardId, jar);
    }
    return jar;
  }

  /** The card's jar if it is still open here, else the general one (e.g. reading a closed card). */
  existingOrGeneral(cardId: string): CookieJar {
    return this.byCard.get(cardId) ?? this.general;
  }

  /** The card's cookies named like the hosted balancer's affinity cookies (`AWSALB…`), as `name=value`. */
  affinityOf(cardId: string, url: string): string[] {
    const jar = this.byCard.get(cardId);
    if (jar === undefined) return [];
    return jar
      .getCookiesSync(url)
      .filter((cookie) => cookie.key.startsWith(AFFINITY_COOKIE_PREFIX))
      .map((cookie) => `${cookie.key}=${cookie.value}`);
  }

  drop(cardId: string): void {
    this.byCard.delete(cardId);
  }

  get openCards(): number {
    return this.byCard.size;
  }
}

/**
 * Stores every Set-Cookie of an answer. Cookies are stored as if set at the origin root, so a cookie
 * without a Path attribute (default path = the request's directory) still goes with every later
 * request of the card, as docs/protocol.md §7 requires; an explicit Path is honoured. Malformed cookies are skipped.
 */
export function storeSetCookies(jar: CookieJar, origin: string, setCookie: string | string[] | undefined): void {
  if (setCookie === undefined) return;
  const headers = Array.isArray(setCookie) ? setCookie : [setCookie];
  // A balancer repeats the same Set-Cookie on answer after answer; storing it again changes nothing
  // (same value, same absolute expiry) but parsing it cost a tenth of a loopback action. Max-Age is
  // relative, so such a cookie is stored every time to move its expiry on.
  const key = `${origin}\n${headers.join('\n')}`;
  if (lastStored.get(jar) === key && !/max-age/i.test(key)) return;
  const root = `${origin}/`;
  for (const header of headers) jar.setCookieSync(header, root, { ignoreError: true });
  lastStored.set(jar, key);
  cookieHeaders.delete(jar);
}

/** The Set-Cookie headers a jar took last, with their origin. */
const lastStored = new WeakMap<CookieJar, string>();

/**
 * The Cookie header for a request to `url` as the jar stands now; undefined when there is none.
 * Reading a jar (path matching, expiry checks, date parsing) on every request was a visible share of a
 * loopback action, so the header is kept per jar and URL until the jar next stores a cookie or one of
 * the header's cookies expires: the very header a fresh read would give.
 */
export function cookieHeaderFor(jar: CookieJar, url: string): string | undefined {
  const now = Date.now();
  let byUrl = cookieHeaders.get(jar);
  const known = byUrl?.get(url);
  if (known !== undefined && now < known.validUntil) return known.header;
  const cookies = jar.getCookiesSync(url);
  let validUntil = Infinity;
  for (const cookie of cookies) {
    // Max-Age expiry moves with each access in tough-cookie: such a header is not kept.
    const expiry = cookie.maxAge != null ? now : cookie.expiryTime();
    if (expiry !== undefined && expiry < validUntil) validUntil = expiry;
  }
  const header = cookies.length === 0 ? undefined : cookies.map((cookie) => cookie.cookieString()).join('; ');
  if (byUrl === undefined) {
    byUrl = new Map();
    cookieHeaders.set(jar, byUrl);
  }
  byUrl.set(url, { header, validUntil });
  return header;
}

/** Cookie headers per jar and request URL, dropped whenever the jar stores a cookie. */
const cookieHeaders = new WeakMap<CookieJar, Map<string, { header: string | undefined; validUntil: number }>>();
