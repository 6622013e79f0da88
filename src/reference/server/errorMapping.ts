/**
 * Every failure becomes `{error, message}` with its status (docs/protocol.md §6): the service's ApiError as it is,
 * fastify's own request errors (bad JSON, wrong content-type, body too large, bad URL) as 4xx
 * VALIDATION_ERROR with a sentence saying what to send instead, unknown paths as 404, wrong methods as
 * 405. Only a genuine bug is a 500, and it is logged.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, isApiError, type ApiErrorCode } from '../../protocol/index.ts';

export function sendError(reply: FastifyReply, status: number, code: ApiErrorCode | string, message: string, retryAfterSeconds?: number): FastifyReply {
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(status).type('application/json; charset=utf-8').send({ error: code, message });
}

/** How a request the routes could not take (bad body, unknown path, wrong method) is answered: sendError, or the dialect's own. */
export type RequestErrorSender = (reply: FastifyReply, status: number, code: string, message: string) => FastifyReply;

/** How a refusal of the service is answered: sendApiError, or in the dialect's own words. */
export type RefusalSender = (reply: FastifyReply, error: ApiError) => FastifyReply;

export const sendApiError: RefusalSender = (reply, error) => sendError(reply, error.status, error.code, error.message, error.retryAfterSeconds);

export function installErrorMapping(
  app: FastifyInstance,
  bodyLimitBytes: number,
  sendRequestError: RequestErrorSender = sendError,
  sendRefusal: RefusalSender = sendApiError,
): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (isApiError(error)) return sendRefusal(reply, error);
    const status = statusOf(error);
    if (status !== undefined && status >= 400 && status < 500) {
      return sendRequestError(reply, status, 'VALIDATION_ERROR', describeRequestError(error as FastifyError, request, bodyLimitBytes));
    }
    request.log.error({ err: error }, 'unexpected error while answering a request');
    return sendError(reply, 500, 'SERVER_ERROR', 'internal server error; the server log has the details');
  });

  app.setNotFoundHandler((request, reply) =>
    sendRequestError(
      reply,
      404,
      'SERVER_ERROR',
      `no endpoint ${request.method} ${pathOf(request.url)}; the API is under /api (games, scorecard, cmd, healthcheck)`,
    ),
  );
}

/** Answers a request that matched a path but not its method. */
export function methodNotAllowed(allowed: readonly string[], sendRequestError: RequestErrorSender = sendError) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    sendRequestError(
      reply.header('allow', allowed.join(', ')),
      405,
      'VALIDATION_ERROR',
      `${pathOf(request.url)} does not take ${request.method}; use ${allowed.join(' or ')}`,
    );
}

/** For fastify's `frameworkErrors`: failures found while routing, before any handler (a bad URL). */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = statusOf(error) ?? 400;
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? `the path ${JSON.stringify(truncate(request.url))} is not a valid URL; percent-encode it`
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? `a path segment of ${JSON.stringify(truncate(request.url))} is too long for any id`
        : truncate(error.message);
  sendError(reply, status >= 400 && status < 500 ? status : 400, 'VALIDATION_ERROR', message);
}

/**
 * For fastify's `clientErrorHandler`: requests Node's HTTP parser rejects (malformed request line,
 * headers over the size limit) never reach fastify; answer them in the same shape and drop the socket.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'the request took too long to arrive']
        : [400, 'Bad Request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: 'VALIDATION_ERROR', message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function describeRequestError(error: FastifyError, request: FastifyRequest, bodyLimitBytes: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `content-type ${JSON.stringify(truncate(request.headers['content-type'] ?? '(none)'))} is not accepted; send the body as JSON with Content-Type: application/json`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `the request body is larger than the limit of ${bodyLimitBytes} bytes`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'the Content-Length header does not match the body sent';
    default:
      return error.message;
  }
}

function statusOf(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return truncate(query < 0 ? url : url.slice(0, query));
}

// Echoing a megabyte of garbage back in a message helps nobody.
function truncate(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
