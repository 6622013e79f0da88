/**
 * Assembles the HTTP server of the reference service from its parts: body parsing, error mapping,
 * affinity routing to the backends, rate limiting, the routes, the sweep timer, graceful close.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ReferenceService } from '../referenceService.ts';
import { installAffinity } from './affinity.ts';
import type { AffinityRouter } from './affinityRouter.ts';
import { createBackends } from './backends.ts';
import { dialectBehaviour } from './dialect.ts';
import { installConnectionCap, resolveConnectionLimits, timeoutServerOptions } from './connectionLimits.ts';
import { installGracefulClose } from './gracefulClose.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorMapping } from './errorMapping.ts';
import { installJsonBody } from './jsonBody.ts';
import { serverLogger } from './logging.ts';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_SWEEP_INTERVAL_MS, type ServerOptions } from './options.ts';
import { installRateLimit } from './rateLimit.ts';
import { installRoutes } from './routes.ts';
import { installScorecardPage } from './scorecardPage.ts';
import { installSweep } from './sweep.ts';

export interface AssembledServer {
  app: FastifyInstance;
  backends: ReferenceService[];
  affinity: AffinityRouter;
}

export function assembleServer(options: ServerOptions = {}): AssembledServer {
  const backends = createBackends(options);
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const limits = resolveConnectionLimits(options);
  const app = Fastify({
    ...timeoutServerOptions(limits),
    ...(options.logger ? { loggerInstance: serverLogger(options.logger) } : {}),
    bodyLimit,
    // Ids are uuids and short game ids; a generous cap still answers absurd ones with a 4xx.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // close(): keep-alive sockets with no request in flight go at once, in-flight requests finish.
    forceCloseConnections: 'idle',
  }) as unknown as FastifyInstance;

  installConnectionCap(app, limits);
  const dialect = dialectBehaviour(options.dialect);
  installJsonBody(app, dialect.readsStructuredJsonTypes);
  installErrorMapping(app, bodyLimit, dialect.requestError, dialect.refusal);
  // Routing first: a refused request (429) still carries the affinity cookie, as behind the balancer.
  const affinity = installAffinity(app, backends, {
    rotateEvery: options.rotateAffinity,
    graceMs: options.affinityGraceMs,
    now: options.now,
    issueCookies: dialect.issuesAffinityCookies(backends.length),
  });
  installRateLimit(app, { perMinute: options.rateLimitPerMinute, inject429Every: options.inject429Every, now: options.now });
  dialect.installWording(app);
  installRoutes(app, dialect);
  if (dialect.servesScorecardPage) installScorecardPage(app, backends);
  installSweep(app, backends, options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  installGracefulClose(app);
  return { app, backends, affinity };
}

/** The server as a fastify instance, not listening yet (`inject()` works on it). */
export function buildServer(options: ServerOptions = {}): FastifyInstance {
  return assembleServer(options).app;
}
