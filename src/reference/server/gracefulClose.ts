/**
 * close() finishes in-flight requests, but a keep-alive socket that answers one after close() began
 * would stay open and hold close() forever. So once closing, every response says `Connection: close`
 * and its socket ends with it. (Idle sockets are closed by fastify's forceCloseConnections: 'idle'.)
 */
import type { FastifyInstance } from 'fastify';

export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, like the affinity hooks: no promise per request for a flag check.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
