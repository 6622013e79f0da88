/**
 * Turning answer bytes into values: error answers into ApiError, JSON answers through the protocol's
 * zod schemas, frame answers through the hand-written grid codec. Anything that does not parse is a
 * TransportError of kind `protocol` naming the status and the start of the body.
 */
import { Buffer } from 'node:buffer';
import type { z } from 'zod';
import { ApiError, decodeFrameResponse, formatIssues, ISSUE_OPTIONS } from '../../protocol/index.ts';
import type { FrameResponse } from '../../protocol/index.ts';
import { TransportError } from '../transport.ts';
import { parseRetryAfter } from './retryPolicy.ts';
import type { RawAnswer } from './sendOnce.ts';

const SNIPPET_CHARS = 200;

function bodySnippet(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIPPET_CHARS * 4)).toString('utf8');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat === '' ? '(empty body)' : flat;
}

/**
 * An error answer as ApiError. The service sends `{error, message}`; a proxy or load balancer may send
 * HTML or nothing, which still becomes an ApiError with the status (code `HTTP_<status>`), because the
 * status is what callers and the retry policy act on.
 */
export function apiErrorFromAnswer(answer: RawAnswer, what: string): ApiError {
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after']);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : retryAfterMs / 1000;
  const parsed = tryParseJson(answer.bytes);
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { error, message } = parsed as { error?: unknown; message?: unknown };
    if (typeof error === 'string' || typeof message === 'string') {
      return new ApiError(
        answer.status,
        typeof error === 'string' ? error : `HTTP_${answer.status}`,
        typeof message === 'string' ? message : `${what}: HTTP ${answer.status}`,
        retryAfterSeconds,
      );
    }
  }
  return new ApiError(answer.status, `HTTP_${answer.status}`, `${what}: HTTP ${answer.status}: ${bodySnippet(answer.bytes)}`, retryAfterSeconds);
}

export function parseJsonAnswer<S extends z.ZodType>(answer: RawAnswer, schema: S, what: string): z.output<S> {
  const parsed = tryParseJson(answer.bytes);
  if (parsed === undefined) {
    throw new TransportError('protocol', `${what}: HTTP ${answer.status} answer is not JSON: ${bodySnippet(answer.bytes)}`);
  }
  const result = schema.safeParse(parsed, ISSUE_OPTIONS);
  if (!result.success) {
    throw new TransportError(
      'protocol',
      `${what}: HTTP ${answer.status} answer has an unexpected shape (${formatIssues(result.error.issues)}): ${bodySnippet(answer.bytes)}`,
    );
  }
  return result.data;
}

export function parseFrameAnswer(answer: RawAnswer, what: string): FrameResponse {
  try {
    return decodeFrameResponse(answer.bytes);
  } catch (error) {
    throw new TransportError(
      'protocol',
      `${what}: HTTP ${answer.status} answer is not a frame response (${(error as Error).message}): ${bodySnippet(answer.bytes)}`,
      { cause: error },
    );
  }
}

function tryParseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
}
