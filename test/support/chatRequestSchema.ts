/**
 * What a Chat Completions server accepts, for the chat fake: ChatCompletionCreateParams of the `openai`
 * SDK (`openai/resources/chat/completions`), field by field (an unknown field is refused, as the
 * SDK's type refuses it), and the API's documented rules across fields, which no type can say.
 */
import { z } from 'zod';

const anything = z.unknown().optional();
const text = z.strictObject({ type: z.literal('text'), text: z.string(), prompt_cache_breakpoint: anything });
const image = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({ url: z.string(), detail: z.enum(['auto', 'low', 'high']).optional() }),
  prompt_cache_breakpoint: anything,
});
const refusal = z.strictObject({ type: z.literal('refusal'), refusal: z.string() });
const texts = z.union([z.string(), z.array(text)]);
const toolCall = z.strictObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
});
const message = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: texts, name: z.string().optional() }),
  z.strictObject({ role: z.literal('developer'), content: texts, name: z.string().optional() }),
  z.strictObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.discriminatedUnion('type', [text, image]))]),
    name: z.string().optional(),
  }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(z.discriminatedUnion('type', [text, refusal]))]).nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCall).optional(),
    name: z.string().optional(),
    audio: anything,
    function_call: anything,
  }),
  z.strictObject({ role: z.literal('tool'), content: texts, tool_call_id: z.string() }),
  /** ChatCompletionFunctionMessageParam: deprecated, still in the type, and what the official LLM template sends. */
  z.strictObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);
const tool = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

/** ChatCompletionCreateParams (streaming or not), field by field. */
export const chatCreateSchema = z.strictObject({
  model: z.string(),
  messages: z.array(message).min(1),
  max_completion_tokens: z.int().positive().nullish(),
  max_tokens: z.int().positive().nullish(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  seed: z.int().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  tools: z.array(tool).optional(),
  tool_choice: anything,
  parallel_tool_calls: z.boolean().optional(),
  response_format: anything,
  stream: z.boolean().nullish(),
  stream_options: z.strictObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() }).nullish(),
  audio: anything,
  frequency_penalty: anything,
  function_call: anything,
  functions: anything,
  logit_bias: anything,
  logprobs: anything,
  metadata: anything,
  modalities: anything,
  moderation: anything,
  n: anything,
  prediction: anything,
  presence_penalty: anything,
  prompt_cache_key: anything,
  prompt_cache_options: anything,
  prompt_cache_retention: anything,
  safety_identifier: anything,
  service_tier: anything,
  stop: anything,
  store: anything,
  top_logprobs: anything,
  top_p: anything,
  user: anything,
  verbosity: anything,
  web_search_options: anything,
});

type Message = z.infer<typeof message>;

/**
 * The documented rules across messages:
 * - an assistant message's `content` is "Required unless `tool_calls` or `function_call` is specified"
 *   (ChatCompletionAssistantMessageParam.content in the SDK's own type); servers answer 400 to
 *   `{"role":"assistant","content":null}` (vLLM, llama.cpp and OpenAI alike);
 * - a `tool` message answers a tool call of the assistant message before it ("messages with role 'tool'
 *   must be a response to a preceeding message with 'tool_calls'", OpenAI's 400).
 */
export function chatConversationProblem(messages: readonly Message[]): string | undefined {
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'assistant') {
      const hasContent = m.content !== undefined && m.content !== null;
      const calls = m.tool_calls ?? [];
      if (!hasContent && calls.length === 0 && !m.function_call)
        return `Invalid value for 'messages[${i}].content': an assistant message needs content unless tool_calls is given.`;
      open = new Set(calls.map((call) => call.id));
    } else if (m.role === 'tool') {
      if (!open.has(m.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${i}].tool_call_id ${m.tool_call_id}).`;
    } else open = new Set();
  }
  return undefined;
}
