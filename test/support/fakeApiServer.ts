/**
 * What the fake Responses-API and Anthropic Messages servers share: fastify on 127.0.0.1 (a free
 * port), every request recorded with its headers, each body checked against the API's request schema
 * (a 400 naming the unknown or wrong field, as the real APIs answer), and replies from a script queue
 * then a fallback: an answer the server builds, an error status (with Retry-After), a raw body, a
 * delay, or no answer at all.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { RecordedRequest } from './fakeModelServer.ts';
import { HangingRequests } from './hangingRequests.ts';
import { itemAt } from './lists.ts';

export type Scripted<Answer> =
  | (Answer & { delayMs?: number })
  /** An error status, with an optional Retry-After (seconds) or retry-after-ms header. */
  | { status: number; retryAfter?: number; retryAfterMs?: number; message?: string; delayMs?: number }
  /** A 200 whose body is this text, as is (not JSON, or JSON of the wrong shape). */
  | { rawBody: string; delayMs?: number }
  /** Never answers; the request stays open until the client gives up or the server closes. */
  | { hang: true };

export interface Route<Answer> {
  readonly path: string;
  readonly schema: z.ZodType;
  /** Checks beyond the schema (ids the server knows, signatures, beta headers); a sentence for the 400, or undefined. */
  readonly check?: (body: any, headers: RecordedRequest['headers']) => string | undefined;
  /** Whether this route takes its reply from the script (else it always answers with `answer`). */
  readonly scripted: boolean;
  answer(body: any, planned: Answer, index: number): unknown;
}

export interface FakeApi<Answer> {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  request(index: number): RecordedRequest;
  /** Milliseconds the server spent on each request it answered (scripted delays included), for the bench. */
  readonly handlingMs: number[];
  /** Requests refused with a 400, with the server's sentence. */
  readonly refused: Array<{ index: number; message: string }>;
  script(...replies: Array<Scripted<Answer>>): void;
  setFallback(responder: ((request: RecordedRequest, index: number) => Scripted<Answer>) | undefined): void;
  hanging(): number;
  close(): Promise<void>;
}

/** The zod issues as the APIs word them: `Unknown parameter: 'input[2].foo'.` or the field and what is wrong. */
export function schemaProblem(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.reduce<string>(
        (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
        '',
      );
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `Unknown parameter: '${path === '' ? key : `${path}.${key}`}'.`).join(' ');
      return `Invalid value for '${path}': ${issue.message}.`;
    })
    .join(' ');
}

export async function startFakeApi<Answer extends object>(options: {
  readonly prefix: string;
  readonly routes: ReadonlyArray<Route<Answer>>;
  readonly errorBody: (status: number, message: string) => unknown;
  readonly fallback?: (request: RecordedRequest, index: number) => Scripted<Answer>;
}): Promise<FakeApi<Answer>> {
  const queue: Array<Scripted<Answer>> = [];
  const requests: RecordedRequest[] = [];
  const refused: Array<{ index: number; message: string }> = [];
  const handlingMs: number[] = [];
  let fallback = options.fallback;
  const hangingRequests = new HangingRequests();
  const app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 * 1024 });

  for (const route of options.routes) {
    app.post(`${options.prefix}${route.path}`, async (request, reply) => {
      const recorded: RecordedRequest = { method: request.method, path: request.url, headers: { ...request.headers }, body: request.body };
      const index = requests.length;
      requests.push(recorded);
      const parsed = route.schema.safeParse(request.body);
      const problem = parsed.success ? route.check?.(request.body, request.headers) : schemaProblem(parsed.error);
      if (problem !== undefined) {
        refused.push({ index, message: problem });
        return reply.code(400).header('x-should-retry', 'false').send(options.errorBody(400, problem));
      }
      const started = performance.now();
      reply.raw.once('finish', () => handlingMs.push(performance.now() - started));
      const planned = route.scripted ? (queue.shift() ?? fallback?.(recorded, index)) : ({} as Answer);
      if (planned === undefined) return reply.code(500).send(options.errorBody(500, `fake server: no reply scripted for request ${index}`));
      if ('hang' in planned) {
        await hangingRequests.hold(request.raw.socket);
        return reply;
      }
      if ('delayMs' in planned && planned.delayMs) await new Promise((resolve) => setTimeout(resolve, planned.delayMs));
      if ('status' in planned) {
        if (planned.retryAfter !== undefined) reply.header('retry-after', String(planned.retryAfter));
        if (planned.retryAfterMs !== undefined) reply.header('retry-after-ms', String(planned.retryAfterMs));
        // The official SDKs honour x-should-retry over their own rules; the agent under test decides itself.
        reply.header('x-should-retry', 'false');
        return reply.code(planned.status).send(options.errorBody(planned.status, planned.message ?? `scripted status ${planned.status}`));
      }
      if ('rawBody' in planned) return reply.code(200).header('content-type', 'application/json').send(planned.rawBody);
      return reply.code(200).send(route.answer(request.body, planned as Answer, index));
    });
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseUrl: `${address}${options.prefix}`,
    requests,
    refused,
    handlingMs,
    request: (index) => itemAt(requests, index, 'model request'),
    script: (...replies) => void queue.push(...replies),
    setFallback: (responder) => {
      fallback = responder;
    },
    hanging: () => hangingRequests.size,
    close: async () => {
      hangingRequests.releaseAll();
      await app.close();
    },
  };
}

/** A deterministic token count: 4 characters a token, as the agent estimates too. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Characters two texts share from their start. */
export function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * OpenAI's automatic prompt cache, as documented: a request reuses the longest prefix of an earlier
 * one, once that prefix is 1,024 tokens or more, in steps of 128 tokens.
 */
export class AutomaticPrefixCache {
  private readonly seen: string[] = [];

  /** The request's tokens, and how many of them the cache serves; the request is remembered. */
  measure(text: string): { total: number; cached: number } {
    const total = tokensOf(text);
    const longest = Math.floor(Math.max(0, ...this.seen.map((previous) => commonPrefix(previous, text))) / 4);
    this.seen.push(text);
    const cached = longest < 1_024 ? 0 : Math.min(total, Math.floor(longest / 128) * 128);
    return { total, cached };
  }
}
