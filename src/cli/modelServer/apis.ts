/**
 * The three wire shapes the offline model server speaks, each as the provider documents it: OpenAI's
 * Chat Completions (POST …/chat/completions), OpenAI's Responses API (POST …/responses) and Anthropic's
 * Messages API (POST …/messages). For each: the tools a request offers, and an answer's body.
 */
import type { Answer, OfferedTool } from './answer.ts';

type Body = Record<string, unknown>;

export interface WireApi {
  /** The path's last segments, matched at the end of the URL (with or without /v1 before them). */
  readonly path: string;
  readonly name: string;
  offeredTools(body: Body): OfferedTool[];
  answerBody(answer: Answer, body: Body, n: number): Body;
}

const listOf = (value: unknown): Body[] => (Array.isArray(value) ? value.filter((item): item is Body => item !== null && typeof item === 'object') : []);
const schemaOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});
const modelOf = (body: Body) => (typeof body.model === 'string' ? body.model : 'offline-model');
const created = (n: number) => 1_700_000_000 + n;

const chat: WireApi = {
  path: '/chat/completions',
  name: 'chat',
  offeredTools: (body) =>
    listOf(body.tools).map((tool) => {
      const fn = schemaOf(tool.function);
      return { name: String(fn.name), parameters: schemaOf(fn.parameters) };
    }),
  answerBody: (answer, body, n) => {
    const toolCalls = answer.toolCalls.map((call, i) => ({
      id: `call_${n}_${i}`,
      type: 'function',
      function: { name: call.tool, arguments: JSON.stringify(call.arguments) },
    }));
    const message = { role: 'assistant', content: answer.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
    const { input_tokens, cached_input_tokens, output_tokens } = answer.usage;
    return {
      id: `chatcmpl-offline-${n}`,
      object: 'chat.completion',
      created: created(n),
      model: modelOf(body),
      choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
      usage: {
        prompt_tokens: input_tokens,
        completion_tokens: output_tokens,
        total_tokens: input_tokens + output_tokens,
        prompt_tokens_details: { cached_tokens: cached_input_tokens },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    };
  },
};

const responses: WireApi = {
  path: '/responses',
  name: 'responses',
  offeredTools: (body) => listOf(body.tools).map((tool) => ({ name: String(tool.name), parameters: schemaOf(tool.parameters) })),
  answerBody: (answer, body, n) => {
    const text =
      answer.text === undefined
        ? []
        : [{ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] }];
    const calls = answer.toolCalls.map((call, i) => ({
      type: 'function_call',
      id: `fc_${n}_${i}`,
      call_id: `call_${n}_${i}`,
      name: call.tool,
      arguments: JSON.stringify(call.arguments),
      status: 'completed',
    }));
    const { input_tokens, cached_input_tokens, output_tokens } = answer.usage;
    return {
      id: `resp_offline_${n}`,
      object: 'response',
      created_at: created(n),
      model: modelOf(body),
      status: 'completed',
      output: [...text, ...calls],
      usage: {
        input_tokens,
        input_tokens_details: { cached_tokens: cached_input_tokens },
        output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input_tokens + output_tokens,
      },
      error: null,
    };
  },
};

const anthropic: WireApi = {
  path: '/messages',
  name: 'anthropic',
  offeredTools: (body) => listOf(body.tools).map((tool) => ({ name: String(tool.name), parameters: schemaOf(tool.input_schema) })),
  answerBody: (answer, body, n) => {
    const text = answer.text === undefined ? [] : [{ type: 'text', text: answer.text }];
    const calls = answer.toolCalls.map((call, i) => ({ type: 'tool_use', id: `toolu_offline_${n}_${i}`, name: call.tool, input: call.arguments }));
    const { input_tokens, cached_input_tokens, output_tokens } = answer.usage;
    return {
      id: `msg_offline_${n}`,
      type: 'message',
      role: 'assistant',
      model: modelOf(body),
      content: [...text, ...calls],
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      // Anthropic counts cache reads apart from input_tokens.
      usage: { input_tokens: input_tokens - cached_input_tokens, cache_read_input_tokens: cached_input_tokens, cache_creation_input_tokens: 0, output_tokens },
    };
  },
};

export const WIRE_APIS: readonly WireApi[] = [chat, responses, anthropic];

/** The API a request's path names, or undefined. `…/responses/compact` is no answer call: not served. */
export function apiOfPath(path: string): WireApi | undefined {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  return WIRE_APIS.find((api) => bare.endsWith(api.path));
}
