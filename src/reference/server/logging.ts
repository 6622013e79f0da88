/**
 * What the server logs about a request, and what it never logs: the API key (and any Authorization
 * header) is redacted wherever it appears under the request's headers, whatever logger is injected.
 */
import { LOG_REDACT_PATHS, REDACTED } from '../../redaction.ts';
import pino, { type Logger, type LevelWithSilent } from 'pino';
import type { FastifyRequest } from 'fastify';

const serializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: request.url,
      remoteAddress: request.ip,
      // Headers help diagnose clients (user-agent, content-type, cookies); the key is redacted below.
      headers: { ...request.headers },
    };
  },
};

/** The injected logger, narrowed to redact keys and to log requests through our serializer. */
export function serverLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: LOG_REDACT_PATHS, censor: REDACTED }, serializers });
}

/** A stand-alone logger for `arcbench serve`: JSON lines on the given stream (the CLI passes stderr). */
export function createServeLogger(level: LevelWithSilent, destination: NodeJS.WritableStream): Logger {
  return pino({ level, redact: { paths: LOG_REDACT_PATHS, censor: REDACTED }, base: { name: 'arcbench-serve' } }, destination);
}
