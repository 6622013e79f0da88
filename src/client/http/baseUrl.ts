/**
 * Base URL normalisation (docs/protocol.md §9: `ARC_BASE_URL` comes without a trailing slash, tolerate one).
 *
 * Accepted: `https://host`, `https://host/`, `https://host//`, `https://host/api`, `https://host/api/`,
 * and a prefix behind a reverse proxy (`https://host/arc`). Trailing slashes are dropped, and so is one
 * trailing `/api` segment, because users paste the API root as often as the site root; every path the
 * transport sends starts with `/api/`, so keeping it would give `/api/api/...`.
 */
export interface ServiceBase {
  /** `scheme://host[:port]`: what the connection pool and the rate limiter are keyed by. */
  origin: string;
  /** A path prefix without a trailing slash (usually empty) that goes before `/api/...`. */
  pathPrefix: string;
  /** The normalised base, for messages and `Transport.target`. */
  display: string;
  /** True for localhost and loopback addresses: no default rate limit there. */
  loopback: boolean;
}

export function normaliseBaseUrl(input: string): ServiceBase {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new TypeError(`baseUrl: ${JSON.stringify(input)} is not a URL; expected e.g. https://three.arcprize.org or http://127.0.0.1:8001`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl: ${JSON.stringify(input)} must start with http:// or https://`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`baseUrl: ${JSON.stringify(input)} must not carry a query or fragment; give only the service root`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('baseUrl: must not carry credentials; pass the API key as apiKey');
  }
  // Doubled slashes collapse (`https://host//arc//`), then trailing ones go, then one `/api` segment.
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  const pathPrefix = path.endsWith('/api') ? path.slice(0, -'/api'.length) : path;
  return {
    origin: url.origin,
    pathPrefix,
    display: url.origin + pathPrefix,
    loopback: isLoopbackHost(url.hostname),
  };
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
