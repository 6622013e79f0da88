/**
 * `--queue redis://host:port`: where the worker pool meets. Parsed once, with a sentence for what is
 * wrong; `display` has no password, so the address can go to logs and run.json. Parsing loads no
 * Redis client: `run` parses `--queue` and loads the pool (connectRedis.ts) only when it is given.
 */
import { ConfigError } from '../../runner/config/loader.ts';

export interface RedisAddress {
  /** As given: ioredis reads host, port, password, db and TLS (rediss://) from it. */
  readonly url: string;
  /** The URL without credentials. */
  readonly display: string;
}

const USAGE = '--queue takes a Redis URL: redis://host:port (rediss:// for TLS; redis://:password@host:port/db)';

export function parseRedisAddress(text: string): RedisAddress {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`${USAGE}; got "${text}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`${USAGE}; got the scheme "${url.protocol}" in "${shown(url)}"`);
  if (url.hostname === '') throw new ConfigError(`${USAGE}; the host is missing in "${shown(url)}"`);
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new ConfigError(`${USAGE}; the database after the port must be a number, got "/${db}" in "${shown(url)}"`);
  return { url: text.trim(), display: shown(url) };
}

function shown(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href.replace(/\/$/, '');
}
