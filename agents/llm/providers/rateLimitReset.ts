/**
 * When a 429's rate limit resets, from OpenAI's headers (x-ratelimit-reset-requests and -tokens, a
 * duration such as `1s`, `6m0s` or `20ms`; the documented rate-limit headers), for a server that sent
 * no Retry-After: our own backoff, a second or two, would retry into the same per-minute limit. The
 * limit that ran out (its x-ratelimit-remaining-* is 0) decides; when none says so, the later reset.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go-style duration (`1h2m3.5s`, `20ms`), or undefined when it is not one. */
export function durationMs(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text.trim()) return undefined;
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0);
}

export function rateLimitResetMs(headers: Headers | undefined): number | undefined {
  const limits = ['requests', 'tokens'].flatMap((limit) => {
    const reset = headers?.get(`x-ratelimit-reset-${limit}`);
    const ms = reset === null || reset === undefined ? undefined : durationMs(reset);
    return ms === undefined ? [] : [{ ms, exhausted: headers?.get(`x-ratelimit-remaining-${limit}`) === '0' }];
  });
  const exhausted = limits.filter((limit) => limit.exhausted);
  const deciding = exhausted.length > 0 ? exhausted : limits;
  return deciding.length === 0 ? undefined : Math.max(...deciding.map((limit) => limit.ms));
}
