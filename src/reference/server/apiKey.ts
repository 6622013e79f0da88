/** The caller's key as the service sees it: the X-API-Key header, when sent once. */
import type { FastifyRequest } from 'fastify';

export const API_KEY_HEADER = 'x-api-key';

export function apiKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[API_KEY_HEADER];
  return typeof value === 'string' ? value : undefined;
}
