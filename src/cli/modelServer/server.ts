/**
 * The offline model server: a scripted stand-in for a model provider on loopback, for trying an llm
 * config and testing an agent's plumbing in CI without paying. It answers OpenAI's Chat Completions and
 * Responses APIs and Anthropic's Messages API (apis.ts) with scripted replies (replies.ts) or a seeded
 * random walk (randomWalk.ts), each call declaring the usage it was told to. It keeps no conversation:
 * every call is answered on its own (a Responses `previous_response_id` is accepted and not looked up).
 * Plain node:http: nothing to load beyond Node itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng } from '../../agent/rng.ts';
import type { Answer, DeclaredUsage } from './answer.ts';
import { apiOfPath, type WireApi } from './apis.ts';
import { randomJsonText, randomToolCall } from './randomWalk.ts';
import type { ScriptedReply } from './replies.ts';

export interface ModelServerOptions {
  readonly host: string;
  readonly port: number;
  /** Answered in order, from the top again when spent; none: a random walk. */
  readonly replies?: readonly ScriptedReply[];
  /** Seed of the random walk: the same seed and requests give the same answers. */
  readonly seed: number;
  /** Declared on every call whose reply declares none. */
  readonly usage: DeclaredUsage;
  /** One line per call answered, or per request refused. */
  readonly log?: (line: string) => void;
}

export interface RunningModelServer {
  /** http://host:port */
  readonly origin: string;
  close(): Promise<void>;
}

/** Bodies past this are refused: a whole conversation of frames is far smaller. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const ENDPOINTS = 'POST /v1/chat/completions (api: chat), /v1/responses (api: responses) or /v1/messages (api: anthropic)';

function scripted(reply: ScriptedReply, usage: DeclaredUsage): Answer {
  const toolCalls = reply.tools ?? (reply.tool === undefined ? [] : [{ tool: reply.tool, arguments: reply.arguments ?? {} }]);
  return { toolCalls, usage: reply.usage ?? usage, ...(reply.text === undefined ? {} : { text: reply.text }) };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function refuse(response: ServerResponse, status: number, message: string, log?: (line: string) => void): void {
  log?.(`refused (${status}): ${message}`);
  send(response, status, { type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } });
}

async function bodyOf(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startModelServer(options: ModelServerOptions): Promise<RunningModelServer> {
  const rng = createRng(options.seed);
  let calls = 0;
  const answerOf = (api: WireApi, body: Record<string, unknown>): Answer => {
    const reply = options.replies?.[calls % options.replies.length];
    if (reply !== undefined) return scripted(reply, options.usage);
    const call = randomToolCall(api.offeredTools(body), rng);
    return call === undefined ? { toolCalls: [], text: randomJsonText(body, rng), usage: options.usage } : { toolCalls: [call], usage: options.usage };
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const api = apiOfPath(request.url ?? '/');
    if (request.method !== 'POST' || api === undefined) {
      const compact = (request.url ?? '').includes('/compact') ? '; native compaction is not served: give the agent compaction: summary' : '';
      return refuse(response, 404, `arcbench model-server answers ${ENDPOINTS}, not ${request.method} ${request.url}${compact}`, options.log);
    }
    const raw = await bodyOf(request);
    if (raw === undefined) return refuse(response, 413, `the request is over ${MAX_BODY_BYTES} bytes`, options.log);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(response, 400, 'the request body is not JSON', options.log);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse(response, 400, 'the request body is not a JSON object', options.log);
    const answer = answerOf(api, body as Record<string, unknown>);
    calls += 1;
    const said = answer.toolCalls.map((call) => call.tool).join(', ') || 'text';
    options.log?.(`call ${calls} (${api.name}): ${said}; ${answer.usage.input_tokens} input, ${answer.usage.output_tokens} output tokens`);
    send(response, 200, api.answerBody(answer, body as Record<string, unknown>, calls));
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => refuse(response, 500, error.message, options.log));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
