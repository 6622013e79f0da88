/**
 * The one body parser: JSON, with fastify's prototype-poisoning checks, and messages that say what is
 * wrong (empty, not JSON and where, or forbidden keys). Every other content-type is refused with 415 by
 * fastify, so a text/plain body never reaches the service as a string.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../protocol/index.ts';

export function installJsonBody(app: FastifyInstance): void {
  const secureParse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    secureParse(request, body as string, (error, value) => {
      if (error === null || error === undefined) return done(null, value);
      done(describe(body as string), undefined);
    });
  });
}

function describe(body: string): Error {
  if (body.trim().length === 0) return validationError('the request body is empty; send a JSON object ({} at least)');
  try {
    JSON.parse(body);
  } catch (error) {
    return validationError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  return validationError('the request body must not contain __proto__ or constructor.prototype keys');
}
