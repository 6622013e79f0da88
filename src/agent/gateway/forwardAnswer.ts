/**
 * An upstream's answer passed on to the agent as it arrives, and kept for counting: a JSON body whole,
 * a stream (server-sent events) event by event, each written on as soon as it is complete. The usage
 * chunk the gateway asked for on the agent's behalf (a chat stream that did not ask) is kept back, so
 * the agent sees the very stream it asked for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { SseReader, streamedAnswer } from './streamedAnswer.ts';
import type { WireApi } from './callFigures.ts';

/** Answer headers that belong to one hop (the body may change length: a usage chunk kept back). */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Resolves, once the answer's bytes are passed on, with the answer as JSON (a stream put back
 * together), or undefined. The response is left open: the caller counts the call, then ends it, so
 * the call is counted before the agent can have its answer (and answer arcbench in turn).
 */
export async function forwardAnswer(
  answer: IncomingMessage,
  response: ServerResponse,
  hideUsageChunk: boolean,
  api?: WireApi,
): Promise<Record<string, unknown> | undefined> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
  response.writeHead(answer.statusCode ?? 502, headers);
  const streamed = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
  const reader = new SseReader();
  const events: unknown[] = [];
  const chunks: Buffer[] = [];
  // Whole characters only: a chunk may end inside one.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of answer as AsyncIterable<Buffer>) {
    if (!streamed) {
      chunks.push(chunk);
      response.write(chunk);
      continue;
    }
    for (const event of reader.take(decoder.write(chunk))) {
      events.push(event.data);
      if (!(hideUsageChunk && isUsageChunk(event.data))) response.write(event.raw);
    }
  }
  if (streamed) response.write(reader.rest() + decoder.end());
  if (streamed) return api === undefined ? undefined : streamedAnswer(api, events);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Chat Completions' last chunk when usage was asked for: no choices, only the usage. */
function isUsageChunk(data: unknown): boolean {
  const chunk = data as { choices?: unknown[]; usage?: unknown } | null;
  return chunk !== null && typeof chunk === 'object' && Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null;
}
