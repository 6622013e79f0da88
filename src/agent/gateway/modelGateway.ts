/**
 * The model gateway of one agent process's episode: an HTTP server on 127.0.0.1 (a free port) that the
 * child's OpenAI and Anthropic SDKs are pointed at (OPENAI_BASE_URL, ANTHROPIC_BASE_URL). Each call is
 * forwarded to the configured upstream as it came (streams passed on event by event as they arrive),
 * and once its answer is complete its tokens, dollars and transcript are handed to `onCall`. Once the
 * episode's dollar budget is spent, the next call is refused the way the provider refuses a spent
 * account, so the agent's own code sees the error it would see from the provider.
 *
 * Keys pass through in headers only, never into a transcript: the transcript is made from the bodies.
 * Loaded only when an episode of an agent with `model_gateway:` starts (a dynamic import).
 */
import { type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ModelCallRequest, ModelCallResponse } from '../transcript.ts';
import { costOfCall, type ModelCallUsage, roundDollars } from '../usage.ts';
import { budgetRefusal, budgetSpentSentence, type Refusal, unknownRoute } from './budgetRefusal.ts';
import { type CallTokens, requestOf, responseOf, tokensOf, type WireApi, wireApiOf } from './callFigures.ts';
import { type ModelGatewaySettings, pricingOf } from './gatewaySettings.ts';
import { forwardAnswer } from './forwardAnswer.ts';

export interface GatewayCall {
  readonly usage: ModelCallUsage;
  readonly request: ModelCallRequest;
  readonly response: ModelCallResponse;
}

export interface ModelGatewayOptions {
  readonly settings: ModelGatewaySettings;
  /** The episode's dollar budget (budgets.max_cost_usd), if it has one. */
  readonly maxCostUsd?: number | undefined;
  readonly onCall: (call: GatewayCall) => void;
}

type Route = 'openai' | 'anthropic';

/** Request headers that belong to one hop, or that the gateway sets itself. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding', 'proxy-connection', 'upgrade']);

export class ModelGateway {
  readonly #server: Server;
  readonly #options: ModelGatewayOptions;
  #spent = 0;
  /** Why a call was refused, once one was: the episode's record says it. */
  refused: string | undefined;

  private constructor(options: ModelGatewayOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => void this.#handle(request, response));
  }

  static async start(options: ModelGatewayOptions): Promise<ModelGateway> {
    const gateway = new ModelGateway(options);
    await new Promise<void>((resolve, reject) => {
      gateway.#server.once('error', reject);
      gateway.#server.listen(0, '127.0.0.1', () => resolve());
    });
    return gateway;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The variables the OpenAI and Anthropic SDKs read their base URL from. */
  env(): Record<string, string> {
    return { OPENAI_BASE_URL: `${this.url}/openai`, ANTHROPIC_BASE_URL: `${this.url}/anthropic` };
  }

  /** Dollars of calls made some other way (reported by the agent itself), for the budget. */
  addSpent(dollars: number | null | undefined): void {
    if (typeof dollars === 'number') this.#spent = roundDollars(this.#spent + dollars);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const [, route, path = '', query = ''] = /^\/(openai|anthropic)(\/[^?]*)?(\?.*)?$/.exec(request.url ?? '') ?? [];
    if (route === undefined) return send(response, unknownRoute(request.url ?? ''));
    const budget = this.#options.maxCostUsd;
    if (budget !== undefined && this.#spent >= budget) {
      this.refused = budgetSpentSentence(this.#spent, budget);
      return send(response, budgetRefusal(route as Route, this.refused));
    }
    const api = request.method === 'POST' ? wireApiOf(route as Route, path) : undefined;
    const sent = api === undefined ? undefined : jsonObject(body);
    const withUsage = api === 'chat' && sent !== undefined ? askedStreamUsage(sent) : { body: sent, added: false };
    const forwarded = withUsage.added ? Buffer.from(JSON.stringify(withUsage.body)) : body;
    const target = new URL(`${this.#upstreamOf(route as Route).replace(/\/$/, '')}${path}${query}`);
    const upstream = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: request.method,
      headers: this.#headersFor(route as Route, request, forwarded.length),
    });
    response.once('close', () => upstream.destroy());
    upstream.once('error', (error) => {
      if (!response.headersSent) send(response, unreachable(target, error));
      else response.destroy();
    });
    upstream.once('response', async (answer) => {
      let received: Record<string, unknown> | undefined;
      try {
        received = await forwardAnswer(answer, response, withUsage.added, api);
      } catch {
        // The upstream broke off mid-answer: so does the agent's, which its SDK reports as it would.
        response.destroy();
        return;
      }
      if (api !== undefined && sent !== undefined && received !== undefined && (answer.statusCode ?? 500) < 300) this.#count(api, sent, received);
      response.end();
    });
    upstream.end(forwarded);
  }

  #upstreamOf(route: Route): string {
    return route === 'openai' ? this.#options.settings.upstream : this.#options.settings.anthropic_upstream;
  }

  #headersFor(route: Route, request: IncomingMessage, length: number): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
    headers['content-length'] = length;
    // Streams and usage are read as text: a compressed answer could be passed on but not read.
    headers['accept-encoding'] = 'identity';
    const key = this.#options.settings.api_key;
    if (key !== undefined && route === 'openai') headers.authorization = `Bearer ${key}`;
    if (key !== undefined && route === 'anthropic') headers['x-api-key'] = key;
    return headers;
  }

  #count(api: WireApi, sent: Record<string, unknown>, answer: Record<string, unknown>): void {
    const requested = typeof sent.model === 'string' ? sent.model : 'unknown';
    const tokens = tokensOf(api, answer, requested);
    const usage = tokens === undefined ? { model: requested, input_tokens: 0, output_tokens: 0, cost_usd: null } : this.#priced(tokens, requested);
    this.addSpent(usage.cost_usd);
    try {
      this.#options.onCall({ usage, request: requestOf(api, sent), response: responseOf(api, answer) });
    } catch {
      // The episode has ended (or its transcript could not be kept): the agent's call still got its answer.
    }
  }

  #priced(tokens: CallTokens, requested: string): ModelCallUsage {
    const { cache_write_tokens: written, ...figures } = tokens;
    const pricing = pricingOf(this.#options.settings, tokens.model) ?? pricingOf(this.#options.settings, requested);
    const rest = costOfCall({ ...figures, input_tokens: figures.input_tokens - written }, pricing);
    const cost = rest === null || pricing === undefined ? null : roundDollars(rest + (written * (pricing.cache_write ?? pricing.input)) / 1e6);
    return { ...figures, cost_usd: cost };
  }
}

/** A chat stream asks for its usage chunk (the only place a stream counts its tokens); `added` when the agent had not. */
function askedStreamUsage(body: Record<string, unknown>): { body: Record<string, unknown>; added: boolean } {
  const options = (body.stream_options ?? {}) as Record<string, unknown>;
  if (body.stream !== true || options.include_usage === true) return { body, added: false };
  return { body: { ...body, stream_options: { ...options, include_usage: true } }, added: true };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

function jsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, refusal: Refusal): void {
  response.writeHead(refusal.status, refusal.headers).end(refusal.body);
}

/** The upstream could not be reached: a 502 the SDKs retry, saying where and why. */
function unreachable(target: URL, error: NodeJS.ErrnoException): Refusal {
  const message = `arcbench's model gateway could not reach ${target.origin}: ${error.code ?? error.message}`;
  return {
    status: 502,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message, type: 'api_connection_error', param: null, code: null } }),
  };
}
