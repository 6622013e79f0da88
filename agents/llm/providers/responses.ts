/**
 * `api: responses`: OpenAI's Responses API (and servers that implement it) through the `openai` SDK,
 * with the conversation state `state` asks for:
 *   provider   the server keeps the conversation: each request names the previous response
 *              (`previous_response_id`) and sends only what is new (tool results, the next turn);
 *              after a summary the chain starts again from the agent's memory.
 *   stateless  nothing is kept on the server (`store: false`, for data that must not be retained):
 *              every request carries the kept turns with the model's reasoning items as returned,
 *              encrypted (`include: ["reasoning.encrypted_content"]`); turns folded by a compaction
 *              take their reasoning with them.
 *   harness    the agent's own memory, sent whole every call.
 * Every state sends a reply's reasoning items back with its tool calls: a reasoning model's
 * function_call item without the reasoning item it came with is refused (400, "provided without its
 * required 'reasoning' item"). With store on (provider, harness) the server kept them and the item's id
 * names them; stateless sends them with their encrypted content.
 * With reasoning_effort set, each request asks for reasoning summaries (`reasoning.summary`: the API
 * sends none unless asked) and for the reasoning of earlier turns (`reasoning.context: all_turns`:
 * models before gpt-5.6 keep only the current turn's by default, and each step is a new turn).
 * `compaction: native` calls the API's compact endpoint: the whole conversation becomes the items it
 * returns (the user messages and one encrypted compaction item), sent first from then on.
 */
import OpenAI from 'openai';
import type {
  CompactedResponse,
  FunctionTool,
  Response,
  ResponseCompactParams,
  ResponseCreateParamsNonStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';
import type { ModelCallTranscript } from 'arcbench';
import type { Entry, ModelReply, ModelRequest } from '../conversation.ts';
import { joinedParts } from '../conversation.ts';
import type { ContentPart } from '../frameFormats.ts';
import { MalformedAnswer, ModelClient, type Wire } from './modelClient.ts';
import { oncePerObject } from '../oncePerObject.ts';
import type { Provider, ProviderSettings } from './provider.ts';
import { modelTransport } from './transport.ts';
import type { UsageFigures } from './usage.ts';

type Body = ResponseCreateParamsNonStreaming;

/**
 * The last answer of a `provider` conversation: what the server holds, up to that reply (the reply of
 * that id in the conversation). Plain JSON: it is the provider's part of the agent's snapshot.
 */
interface ChainEnd {
  readonly responseId: string;
  /** The instructions the chain was built under: a new summary in them starts a new chain. */
  readonly system: string;
}

function checked<T extends { output?: unknown }>(kind: string, value: unknown): T {
  const answer = value as { object?: unknown; output?: unknown; status?: unknown; error?: { message?: string } | null } | null;
  if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.output)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    throw new MalformedAnswer(`the answer is not a ${kind}: ${String(text).slice(0, 200)}`);
  }
  if (answer.status === 'failed') throw new MalformedAnswer(`the response failed: ${answer.error?.message ?? 'no reason given'}`);
  return value as T;
}

function usageOf(answer: { usage?: Response['usage']; model?: string }, model: string): UsageFigures {
  const usage = answer.usage;
  return {
    model: answer.model || model,
    input_tokens: usage?.input_tokens ?? 0,
    cached_input_tokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    reasoning_tokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    ...(usage === undefined || usage === null ? { counted: false } : {}),
  };
}

function inputContent(part: ContentPart): ResponseInputContent {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  return { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' };
}

/** An entry as input items: a reply's messages, tool calls and the reasoning items they came with. */
function itemsOf(entry: Entry): ResponseInputItem[] {
  switch (entry.kind) {
    case 'user':
      return [{ type: 'message', role: 'user', content: joinedParts(entry.parts).map(inputContent) }];
    case 'reply':
      return (entry.reply.native as ResponseOutputItem[]).filter(
        (item): item is ResponseOutputItem & ResponseInputItem => item.type === 'message' || item.type === 'function_call' || item.type === 'reasoning',
      );
    case 'tool_results':
      return entry.results.map((result): ResponseInputItem => ({ type: 'function_call_output', call_id: result.id, output: result.content }));
    case 'compacted':
      return entry.native as ResponseInputItem[];
  }
}

function replyOf(response: Response): ModelReply {
  const texts: string[] = [];
  let refusal: string | undefined;
  const toolCalls: ModelReply['toolCalls'][number][] = [];
  for (const item of response.output) {
    if (item.type === 'function_call') toolCalls.push({ id: item.call_id, function: { name: item.name, arguments: item.arguments } });
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type === 'output_text') texts.push(part.text);
      else if (part.type === 'refusal') refusal = part.refusal;
    }
  }
  return {
    text: texts.length > 0 ? texts.join('\n') : null,
    toolCalls,
    ...(refusal === undefined ? {} : { refusal }),
    native: response.output,
    ...(typeof response.id === 'string' ? { id: response.id } : {}),
    inputTokens: response.usage?.input_tokens,
  };
}

/** The reasoning items' summaries, the only reasoning the API shows (their content stays encrypted). */
function reasoningSummaries(output: readonly ResponseOutputItem[]): string | undefined {
  const texts = output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((part) => part.text) : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * A call as its transcript keeps it: the input items as sent (with `state: provider` only what is new
 * since the previous response, which is all this call sent), and the output items with the text, the
 * tool calls (in chat form, as the viewer and the export read them) and the reasoning summaries.
 */
function transcriptOf(body: Body | ResponseCompactParams, output: readonly ResponseOutputItem[], id?: string): Omit<ModelCallTranscript, 'usage'> {
  const { input, instructions, tools, ...params } = body as Body;
  const reply = replyOf({ output } as Response);
  const reasoning = reasoningSummaries(output);
  return {
    request: {
      input: typeof input === 'string' ? [{ role: 'user', content: input }] : [...(input ?? [])],
      ...(instructions ? { instructions } : {}),
      ...(tools ? { tools: [...tools] } : {}),
      params,
    },
    response: {
      content: reply.text,
      ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls.map((call) => ({ type: 'function', ...call })) } : {}),
      ...(reasoning === undefined ? {} : { reasoning }),
      output: [...output],
      // The id a later call names as its previous_response_id: the export follows the chain back.
      ...(id === undefined ? {} : { id }),
    },
  };
}

function toolsOf(request: ModelRequest): { tools?: FunctionTool[] } {
  if (request.tools === undefined) return {};
  return {
    tools: request.tools.map((tool) => ({
      type: 'function',
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters,
      // Our schemas leave rationale and predictions optional, which strict mode does not allow.
      strict: false,
    })),
  };
}

/** The SDK's clients for answers and for native compactions, behind our retries, cache and usage. */
function responsesClients(settings: ProviderSettings) {
  const baseUrl = settings.baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const apiKey = settings.apiKey ?? process.env.OPENAI_API_KEY ?? '';
  const transport = modelTransport(settings.requestTimeoutMs);
  const sdk = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: settings.requestTimeoutMs, logLevel: 'off', ...transport.options });
  const common = { baseUrl, keySource: 'OPENAI_API_KEY or params.api_key', errors: OpenAI };
  const responses = new ModelClient<Body, Response>(
    {
      ...common,
      send: (body, signal) => sdk.responses.create(body, { signal }),
      check: (raw) => checked<Response>('response', raw),
      usage: (answer, body) => usageOf(answer, String(body.model)),
      transcript: (body, answer) => transcriptOf(body, answer.output, answer.id),
    } satisfies Wire<Body, Response>,
    { ...settings, apiKey },
  );
  const compactions = new ModelClient<ResponseCompactParams, CompactedResponse>(
    {
      ...common,
      send: (body, signal) => sdk.responses.compact(body, { signal }),
      check: (raw) => checked<CompactedResponse>('compacted response', raw),
      usage: (answer, body) => usageOf(answer, String(body.model)),
      transcript: (body, answer) => transcriptOf(body, answer.output as ResponseOutputItem[]),
    },
    { ...settings, apiKey },
  );
  return { responses, compactions, close: transport.close };
}

/** What every request of the episode carries besides its input; stateless: nothing kept, reasoning sent back. */
function samplingOf(settings: ProviderSettings): Partial<Body> {
  return {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined ? {} : { max_output_tokens: settings.maxOutputTokens }),
    ...(settings.reasoningEffort === undefined ? {} : { reasoning: { effort: settings.reasoningEffort, summary: 'auto', context: 'all_turns' } }),
    ...(settings.state === 'stateless' ? { store: false, include: ['reasoning.encrypted_content' as const] } : {}),
  };
}

export function createResponsesProvider(settings: ProviderSettings): Provider {
  const { responses, compactions, close } = responsesClients(settings);
  const { state, model } = settings;
  const sampling = samplingOf(settings);
  const inputOf = oncePerObject(itemsOf);
  let chainEnd: ChainEnd | undefined;

  /**
   * The entries the server does not hold yet, and the response they follow (provider state only).
   * After a summary the server's conversation is not the agent's any more: everything is sent again.
   */
  function unsent(request: ModelRequest): { entries: readonly Entry[]; previous?: string } {
    const { entries } = request;
    if (state !== 'provider' || chainEnd === undefined || chainEnd.system !== request.system) return { entries };
    const end = chainEnd;
    const at = entries.findIndex((entry) => entry.kind === 'reply' && entry.reply.id === end.responseId);
    return at < 0 ? { entries } : { entries: entries.slice(at + 1), previous: end.responseId };
  }

  return {
    async ask(request: ModelRequest): Promise<ModelReply> {
      const { entries, previous } = unsent(request);
      const body: Body = {
        model,
        instructions: request.system,
        ...toolsOf(request),
        input: entries.flatMap(inputOf),
        ...(previous === undefined ? {} : { previous_response_id: previous }),
        ...sampling,
      };
      const response = await responses.complete(body, 'action');
      const reply = replyOf(response);
      if (state === 'provider') chainEnd = { responseId: response.id, system: request.system };
      return reply;
    },
    async summarize(system: string, text: string): Promise<string> {
      const body: Body = { model, instructions: system, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }], ...sampling };
      return replyOf(await responses.complete(body, 'compaction')).text ?? '';
    },
    async compact(request: ModelRequest): Promise<unknown> {
      const { entries, previous } = unsent(request);
      const body: ResponseCompactParams = {
        model,
        instructions: request.system,
        input: entries.flatMap(inputOf),
        ...(previous === undefined ? {} : { previous_response_id: previous }),
      };
      const compacted = await compactions.complete(body, 'compaction');
      chainEnd = undefined;
      return compacted.output;
    },
    snapshot: () => chainEnd ?? null,
    restore(saved: unknown) {
      chainEnd = saved === null ? undefined : (saved as ChainEnd);
    },
    close,
  };
}
