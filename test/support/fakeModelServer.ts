/**
 * A fake OpenAI-compatible model server (Chat Completions) for tests: fastify on 127.0.0.1, a free port.
 * A test scripts what each call answers (text, tool calls, usage figures, malformed output, 429 with
 * Retry-After, 5xx, slow or no answer at all, an answer that stops half-way) and reads back every
 * request the server got, headers included, so it can check what the agent sent.
 *
 * Every request is first checked as the real API checks it (chatRequestSchema.ts): a body the SDK's
 * types or the API's rules refuse is answered 400, naming the field, and kept in `refused`.
 *
 * Replies come from a queue (`script(...)`) and, once it is empty, from the `fallback` responder; with
 * neither, the server answers 500 and says the script ran out, so a test that miscounts fails loudly.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { chatConversationProblem, chatCreateSchema } from './chatRequestSchema.ts';
import { AutomaticPrefixCache, schemaProblem, tokensOf } from './fakeApiServer.ts';
import { HangingRequests } from './hangingRequests.ts';
import { itemAt } from './lists.ts';

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Part of prompt_tokens served from the provider's prompt cache. */
  cached_tokens?: number;
  /** Part of completion_tokens spent thinking. */
  reasoning_tokens?: number;
}

export interface FakeToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as is (to script malformed arguments). */
  arguments?: Record<string, unknown> | string;
}

export type FakeReply =
  /** An assistant message: text, tool calls or both. */
  | { text?: string; toolCalls?: FakeToolCall[]; refusal?: string; usage?: FakeUsage; model?: string; delayMs?: number }
  /** An error status, with an optional Retry-After (seconds) or retry-after-ms header. */
  | { status: number; retryAfter?: number; retryAfterMs?: number; message?: string; delayMs?: number; headers?: Record<string, string> }
  /** A 200 whose body is this text, as is (not JSON, or JSON of the wrong shape). */
  | { rawBody: string; delayMs?: number }
  /** Never answers; the request stays open until the client gives up or the server closes. */
  | { hang: true }
  /** Sends its headers and the body's first bytes, then nothing more, held open as `hang` is. */
  | { stall: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export type Responder = (request: RecordedRequest, index: number) => FakeReply;

export interface FakeModelServer {
  /** Base URL to give the SDK, e.g. `http://127.0.0.1:5123/v1`. */
  readonly baseUrl: string;
  /** Every request received, in order (also those answered with an error). */
  readonly requests: RecordedRequest[];
  /** Requests refused with a 400, with the server's sentence. */
  readonly refused: Array<{ index: number; message: string }>;
  /** The request at `index`; fails with a sentence when fewer came. */
  request(index: number): RecordedRequest;
  /** Queues replies, answered in order before the fallback. */
  script(...replies: FakeReply[]): void;
  /** Answers every request once the queue is empty. */
  setFallback(responder: Responder | undefined): void;
  /** Requests that are hanging right now. */
  hanging(): number;
  /** Milliseconds the server spent on each request it answered (scripted delays included), for the bench. */
  readonly handlingMs: number[];
  close(): Promise<void>;
}

export const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 100, completion_tokens: 10 };

function completionBody(reply: Extract<FakeReply, { text?: string }>, requestedModel: unknown, index: number) {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const toolCalls = reply.toolCalls?.map((call, i) => ({
    id: `call_${index}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}) },
  }));
  return {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: 1_700_000_000 + index,
    model: reply.model ?? (typeof requestedModel === 'string' ? requestedModel : 'fake-model'),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: reply.refusal ?? null,
          ...(toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls && toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
    },
  };
}

/**
 * Usage counted as the Responses fake counts it (4 characters a token over the messages and tools,
 * OpenAI's automatic prefix cache), for replies that script none; the bench compares the APIs on it.
 */
function countedUsage(body: { messages?: unknown; tools?: unknown }, reply: Extract<FakeReply, { text?: string }>, cache: AutomaticPrefixCache): FakeUsage {
  const input = cache.measure(JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []));
  return { prompt_tokens: input.total, cached_tokens: input.cached, completion_tokens: tokensOf(JSON.stringify([reply.text ?? null, reply.toolCalls ?? []])) };
}

export async function startFakeModelServer(options: { fallback?: Responder; countTokens?: boolean } = {}): Promise<FakeModelServer> {
  const prefixCache = new AutomaticPrefixCache();
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const handlingMs: number[] = [];
  const refused: Array<{ index: number; message: string }> = [];
  let fallback = options.fallback;
  // Hanging requests end when the server closes (forceCloseConnections drops their sockets).
  const hangingRequests = new HangingRequests();

  const app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 * 1024 });
  app.post('/v1/chat/completions', async (request, reply) => {
    const recorded: RecordedRequest = { method: request.method, path: request.url, headers: { ...request.headers }, body: request.body };
    const index = requests.length;
    requests.push(recorded);
    const problem = requestProblem(request.body);
    if (problem !== undefined) {
      refused.push({ index, message: problem });
      return reply
        .code(400)
        .header('x-should-retry', 'false')
        .send({ error: { message: problem, type: 'invalid_request_error', param: null, code: null } });
    }
    const started = performance.now();
    reply.raw.once('finish', () => handlingMs.push(performance.now() - started));
    const planned: FakeReply | undefined = queue.shift() ?? fallback?.(recorded, index);
    if (planned === undefined) {
      return reply.code(500).send({ error: { message: `fake model server: no reply scripted for request ${index}`, type: 'server_error' } });
    }
    if ('hang' in planned) {
      await hangingRequests.hold(request.raw.socket);
      return reply;
    }
    if ('stall' in planned) {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json' }).write('{"id": "chatcmpl-stalled", ');
      await hangingRequests.hold(request.raw.socket);
      return reply;
    }
    if (planned.delayMs) await new Promise((resolve) => setTimeout(resolve, planned.delayMs));
    if ('status' in planned) {
      if (planned.retryAfter !== undefined) reply.header('retry-after', String(planned.retryAfter));
      if (planned.retryAfterMs !== undefined) reply.header('retry-after-ms', String(planned.retryAfterMs));
      for (const [name, value] of Object.entries(planned.headers ?? {})) reply.header(name, value);
      // The official SDK honours x-should-retry over its own rules; the agent under test decides itself.
      reply.header('x-should-retry', 'false');
      return reply.code(planned.status).send({ error: { message: planned.message ?? `scripted status ${planned.status}`, type: 'fake_error' } });
    }
    if ('rawBody' in planned) return reply.code(200).header('content-type', 'application/json').send(planned.rawBody);
    const counted =
      options.countTokens && planned.usage === undefined ? { ...planned, usage: countedUsage(request.body as object, planned, prefixCache) } : planned;
    const body = completionBody(counted, (request.body as { model?: unknown } | undefined)?.model, index);
    const asked = request.body as { stream?: unknown; stream_options?: { include_usage?: unknown } } | undefined;
    if (asked?.stream === true) return streamReply(reply, body, asked.stream_options?.include_usage === true);
    return reply.code(200).send(body);
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseUrl: `${address}/v1`,
    requests,
    refused,
    request: (index) => itemAt(requests, index, 'model request'),
    script: (...replies) => void queue.push(...replies),
    setFallback: (responder) => {
      fallback = responder;
    },
    hanging: () => hangingRequests.size,
    handlingMs,
    close: async () => {
      hangingRequests.releaseAll();
      await app.close();
    },
  };
}

/** Why the real API would refuse this body, or undefined. */
function requestProblem(body: unknown): string | undefined {
  const parsed = chatCreateSchema.safeParse(body);
  return parsed.success ? chatConversationProblem(parsed.data.messages) : schemaProblem(parsed.error);
}

/**
 * A completion streamed as Chat Completions streams it (stream: true): the role, the text a word a
 * chunk, the tool calls, the finish reason, then (asked for with stream_options.include_usage) a chunk
 * of usage alone with no choices, then [DONE].
 */
function streamReply(reply: FastifyReply, body: ReturnType<typeof completionBody>, withUsage: boolean): FastifyReply {
  const { choices, usage, ...head } = body;
  const { message, finish_reason } = choices[0]!;
  const chunk = (delta: object, finish: string | null = null) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const words = (message.content ?? '').split(/(?<= )/).filter(Boolean);
  const toolCalls = ('tool_calls' in message ? message.tool_calls : undefined) ?? [];
  const chunks: object[] = [
    chunk({ role: 'assistant', content: '' }),
    ...words.map((word) => chunk({ content: word })),
    ...toolCalls.map((call, index) => chunk({ tool_calls: [{ index, ...call }] })),
    chunk({}, finish_reason),
    ...(withUsage ? [{ ...head, object: 'chat.completion.chunk', choices: [], usage }] : []),
  ];
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const one of chunks) reply.raw.write(`data: ${JSON.stringify(one)}\n\n`);
  reply.raw.end('data: [DONE]\n\n');
  return reply;
}

/** The tool calls of one assistant reply, for scripting: `toolCall('ACTION6', { x: 3, y: 4 })`. */
export function toolCall(name: string, args: Record<string, unknown> | string = {}): FakeToolCall {
  return { name, arguments: args };
}
