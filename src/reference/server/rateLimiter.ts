/**
 * Requests per minute per key, as a token bucket: a key may burst up to its minute's allowance, then
 * earns one request every 60/N seconds. `take` says when a refused caller may try again, in whole
 * seconds for the Retry-After header.
 */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

// Buckets that have refilled completely carry no information; past this many keys they are dropped.
const PRUNE_ABOVE = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isFinite(perMinute) || perMinute <= 0) throw new RangeError(`rate limit must be a positive number of requests per minute, got ${perMinute}`);
    this.perMs = perMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
    bucket.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= PRUNE_ABOVE) this.prune(now);
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}
