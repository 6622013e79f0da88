/**
 * What one client can hold of the server: how long an idle keep-alive connection stays open, how long
 * a request's headers and the whole request may take to arrive, and how many connections are open at
 * once. Node's own defaults (a 300 s request timeout, no cap on connections) let a slow or stuck client
 * hold a socket for minutes and any number of them; these are bounded by default, and flags of
 * `arcbench serve` change them.
 */
import type { ServerOptions as NodeServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface ConnectionLimits {
  /** An idle keep-alive connection closes after this long. Default 60 s, the hosted balancer's idle timeout. */
  keepAliveTimeoutMs?: number;
  /** A request's headers must have arrived within this long. Default 10 s. */
  headersTimeoutMs?: number;
  /** A whole request (headers and body) must have arrived within this long. Default 30 s. */
  requestTimeoutMs?: number;
  /** Connections open at once; further ones are closed as they come. Default 1024. */
  maxConnections?: number;
}

export const DEFAULT_CONNECTION_LIMITS: Required<ConnectionLimits> = {
  keepAliveTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 1024,
};

/** The limits with defaults filled in, checked: a bad value is a RangeError that names it. */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): Required<ConnectionLimits> {
  const resolved = { ...DEFAULT_CONNECTION_LIMITS };
  for (const name of Object.keys(resolved) as Array<keyof ConnectionLimits>) {
    const value = limits[name] ?? resolved[name];
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
    resolved[name] = value;
  }
  if (!Number.isInteger(resolved.maxConnections)) throw new RangeError(`maxConnections must be an integer, got ${resolved.maxConnections}`);
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${resolved.headersTimeoutMs}) must not exceed requestTimeoutMs (${resolved.requestTimeoutMs}): the headers are part of the request`,
    );
  return resolved;
}

/** The fastify (and node:http) options that enforce the timeouts. */
export function timeoutServerOptions(limits: Required<ConnectionLimits>): { keepAliveTimeout: number; requestTimeout: number; http: NodeServerOptions } {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node checks both request timeouts only this often (30 s by default), which would stretch them.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
  };
}

/** Caps open connections: Node closes the ones over the cap as they arrive. */
export function installConnectionCap(app: FastifyInstance, limits: Required<ConnectionLimits>): void {
  app.server.maxConnections = limits.maxConnections;
}
