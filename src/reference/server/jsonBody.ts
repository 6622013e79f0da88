/**
 * The one body parser: JSON, with fastify's prototype-poisoning checks, and messages that say what is
 * wrong (empty, not JSON and where, or forbidden keys). Every other content-type is refused with 415 by
 * fastify, so a text/plain body never reaches the service as a string.
 */
import type { FastifyInstance } from 'fastify';

/**
 * `structuredSuffix`: also read `application/<anything>+json` as JSON, as Flask's `get_json` does (the
 * toolkit dialect); otherwise only `application/json`.
 */
export function installJsonBody(app: FastifyInstance, structuredSuffix = false): void {
  const secureParse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  const parse = (request: Parameters<typeof secureParse>[0], body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    secureParse(request, body as string, (error, value) => {
      if (error === null || error === undefined) return done(null, value);
      done(describe(body as string), undefined);
    });
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  if (structuredSuffix) app.addContentTypeParser(/^application\/[^\s;/]+\+json(\s*;.*)?$/i, { parseAs: 'string' }, parse);
}

/**
 * A 400 for the error mapping's request errors (answered as VALIDATION_ERROR, or as the dialect answers
 * a request it cannot parse), not an ApiError of the service: the service never saw the request.
 */
function describe(body: string): Error {
  if (body.trim().length === 0) return badRequest('the request body is empty; send a JSON object ({} at least)');
  try {
    JSON.parse(body);
  } catch (error) {
    return badRequest(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  return badRequest('the request body must not contain __proto__ or constructor.prototype keys');
}

function badRequest(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 400 });
}
