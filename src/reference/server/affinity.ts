/**
 * Routes every request to one backend service by its affinity cookie and sets the cookie on every
 * response, as the hosted load balancer does (docs/protocol.md §7). With one backend the cookie is still issued, so
 * clients exercise their jar handling against any server.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReferenceService } from '../referenceService.ts';
import { AffinityRouter, type Affinity } from './affinityRouter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The backend service this request is routed to. */
    backend: ReferenceService;
    /** The affinity the request belongs to; null until routed (requests rejected before routing). */
    affinity: Affinity | null;
  }
}

export interface AffinityOptions {
  rotateEvery?: number;
  graceMs?: number;
  now?: () => number;
  /** False: route by cookie but set none (a server with no balancer in front, docs/protocol.md §7a). Default true. */
  issueCookies?: boolean;
}

export function installAffinity(app: FastifyInstance, backends: readonly ReferenceService[], options: AffinityOptions): AffinityRouter {
  const router = new AffinityRouter(backends.length, options.rotateEvery, options.now, options.graceMs);
  app.decorateRequest('backend', null as unknown as ReferenceService);
  app.decorateRequest('affinity', null);

  // Callback-style hooks: they finish at once, and an async hook costs a promise and a microtask turn
  // on every request (measured at about a tenth of fastify's own time per request).
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const affinity = router.resolve(request.headers.cookie);
    request.affinity = affinity;
    request.backend = backends[affinity.backend]!;
    done();
  });

  if (options.issueCookies === false) return router;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.affinity !== null) reply.header('set-cookie', AffinityRouter.setCookieHeaders(router.respond(request.affinity)));
    done(null, payload);
  });
  return router;
}
