/**
 * The status line as the toolkit's web framework writes it (Werkzeug: `404 NOT FOUND`, its reason
 * phrases upper-cased, `413 REQUEST ENTITY TOO LARGE` where Node says "Payload Too Large"), and the
 * reason phrases its HTML error pages are titled with (toolkitErrorPages.ts).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Werkzeug's reason phrases where they differ from Node's, for the statuses the server answers. */
const WERKZEUG_REASONS: Readonly<Record<number, string>> = {
  413: 'Request Entity Too Large',
  414: 'Request URI Too Long',
};

/** The reason phrase Werkzeug gives `status`, as its error pages write it. */
export function werkzeugReason(status: number): string {
  return WERKZEUG_REASONS[status] ?? STATUS_CODES[status] ?? 'Unknown Error';
}

/** Every answer's status line as Werkzeug writes it. */
export function installToolkitStatusLine(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    // Node writes the statusMessage it is given instead of its own phrase.
    reply.raw.statusMessage = werkzeugReason(reply.statusCode).toUpperCase();
    return payload;
  });
}
