/**
 * `api: chat`: any OpenAI-compatible Chat Completions server (vLLM, Ollama, OpenRouter, Gemini's
 * compatibility endpoint) through the official `openai` SDK. The conversation is the agent's own
 * memory, sent whole every call: system message first, then the kept turns as they were sent, so the
 * server's automatic prefix cache (where it has one) serves all but the newest turn.
 */
import OpenAI from 'openai';
import type { Entry, ModelReply, ModelRequest } from '../conversation.ts';
import { MalformedAnswer, ModelClient, type Wire } from './modelClient.ts';
import { oncePerObject } from '../oncePerObject.ts';
import type { Provider, ProviderSettings } from './provider.ts';
import { modelTransport } from './transport.ts';
import type { UsageFigures } from './usage.ts';

type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;
/** A chat completion with at least one choice (its type says so, so the first choice is read without a check). */
type Completion = OpenAI.Chat.ChatCompletion & { choices: [OpenAI.Chat.ChatCompletion.Choice, ...OpenAI.Chat.ChatCompletion.Choice[]] };

function checkedCompletion(value: unknown): Completion {
  const message = (value as { choices?: Array<{ message?: unknown }> } | null)?.choices?.[0]?.message;
  if (message === null || typeof message !== 'object') {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    throw new MalformedAnswer(`the answer is not a chat completion: ${String(text).slice(0, 200)}`);
  }
  return value as Completion;
}

function usageOf(completion: Completion, body: Body): UsageFigures {
  const usage = completion.usage;
  return {
    model: completion.model || body.model,
    input_tokens: usage?.prompt_tokens ?? 0,
    cached_input_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    output_tokens: usage?.completion_tokens ?? 0,
    ...(usage === undefined || usage === null ? { counted: false } : {}),
  };
}

/**
 * The model's reply as the conversation keeps it. An assistant message's content is required unless it
 * has tool calls (the SDK's ChatCompletionAssistantMessageParam): a refusal goes back as its text (the
 * `refusal` field is OpenAI's own; compatible servers know only content), an empty reply as ''.
 */
function assistantMessage(reply: OpenAI.Chat.ChatCompletionMessage): OpenAI.Chat.ChatCompletionAssistantMessageParam {
  const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
  return {
    role: 'assistant',
    content: reply.content ?? reply.refusal ?? (calls.length > 0 ? null : ''),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        }
      : {}),
  };
}

const messagesOf = oncePerObject((entry: Entry): Message[] => {
  switch (entry.kind) {
    case 'user':
      if (entry.parts.every((part) => part.type === 'text')) return [{ role: 'user', content: entry.parts.map((part) => part.text).join('\n') }];
      return [{ role: 'user', content: [...entry.parts] }];
    case 'reply':
      return [entry.reply.native as OpenAI.Chat.ChatCompletionAssistantMessageParam];
    case 'tool_results':
      return entry.results.map((result): Message => ({ role: 'tool', tool_call_id: result.id, content: result.content }));
    case 'compacted':
      throw new Error('Chat Completions has no native compaction; use compaction: summary');
  }
});

export function createChatProvider(settings: ProviderSettings): Provider {
  const baseUrl = settings.baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const apiKey = settings.apiKey ?? process.env.OPENAI_API_KEY ?? '';
  const transport = modelTransport(settings.requestTimeoutMs);
  const sdk = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: settings.requestTimeoutMs, logLevel: 'off', ...transport.options });
  const wire: Wire<Body, Completion> = {
    baseUrl,
    keySource: 'OPENAI_API_KEY or params.api_key',
    errors: OpenAI,
    send: (body, signal) => sdk.chat.completions.create(body, { signal }),
    check: checkedCompletion,
    usage: usageOf,
    transcript: ({ messages, tools, ...params }, completion) => {
      const reply = completion.choices[0]?.message;
      return {
        request: { messages, ...(tools ? { tools } : {}), params },
        response: { content: reply?.content ?? null, ...(reply?.tool_calls ? { tool_calls: reply.tool_calls } : {}) },
      };
    },
  };
  const client = new ModelClient(wire, { ...settings, apiKey });
  const sampling: Partial<Body> = {
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined ? {} : { [settings.maxTokensField]: settings.maxOutputTokens }),
    ...(settings.reasoningEffort === undefined ? {} : { reasoning_effort: settings.reasoningEffort }),
  };
  return {
    async ask(request: ModelRequest): Promise<ModelReply> {
      const messages: Message[] = [{ role: 'system', content: request.system }, ...request.entries.flatMap(messagesOf)];
      const tools = request.tools === undefined ? {} : { tools: [...request.tools] };
      const completion = await client.complete({ model: settings.model, messages, ...sampling, ...tools }, 'action');
      const message = completion.choices[0].message;
      return {
        text: message.content ?? null,
        toolCalls: (message.tool_calls ?? []).filter((call) => call.type === 'function'),
        ...(message.refusal ? { refusal: message.refusal } : {}),
        native: assistantMessage(message),
        inputTokens: completion.usage?.prompt_tokens,
      };
    },
    async summarize(system: string, text: string): Promise<string> {
      const messages: Message[] = [
        { role: 'system', content: system },
        { role: 'user', content: text },
      ];
      const completion = await client.complete({ model: settings.model, messages, ...sampling }, 'compaction');
      return completion.choices[0].message.content ?? '';
    },
    close: () => transport.close(),
  };
}
