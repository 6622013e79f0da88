/**
 * What the agent needs of a provider, and all it needs: ask for the next action with a request built
 * from the turn (the reply read back into text, tool calls and the native form kept for later
 * requests), ask for a summary, and, where the API has it, compact the conversation natively. Where
 * the conversation lives (the agent's memory, the provider's `previous_response_id` chain, replayed
 * encrypted reasoning) is each provider's own business, kept in its file: a new API is one new file
 * here and one line in index.ts.
 */
import type { ModelReply, ModelRequest } from '../conversation.ts';
import type { ModelClientOptions } from './modelClient.ts';

export interface Provider {
  /** The reply to a turn; its usage is reported as an `action` call. */
  ask(request: ModelRequest): Promise<ModelReply>;
  /** A plain-text answer to one prompt without tools, reported as a `compaction` call. */
  summarize(system: string, text: string): Promise<string>;
  /**
   * Folds the whole conversation on the provider's side (reported as a `compaction` call); the opaque
   * result goes first in later requests, as a `compacted` entry. Absent where the API has no compaction.
   */
  compact?(request: ModelRequest): Promise<unknown>;
  /** State of the provider's own that the next request depends on, as JSON (for checkpoints); absent when none. */
  snapshot?(): unknown;
  /** Puts back what snapshot() returned. */
  restore?(state: unknown): void;
  /** Lets the provider's connections go once the episode is over. */
  close(): Promise<void>;
}

/**
 * Everything a provider is created with, whatever its API: what its model client takes (retries,
 * pricing, the cache, the usage and transcript reporting), with the key still optional (each API has
 * its own environment variable), and the model's own settings.
 */
export interface ProviderSettings extends Omit<ModelClientOptions, 'apiKey'> {
  readonly model: string;
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly temperature: number | undefined;
  readonly maxOutputTokens: number | undefined;
  /** Chat Completions: the field maxOutputTokens goes in (servers such as llama.cpp know only max_tokens). */
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  readonly reasoningEffort: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | undefined;
  /** Anthropic's extended thinking: tokens the model may think for, per reply. */
  readonly thinkingBudget: number | undefined;
  /** Anthropic's adaptive thinking (the model decides how long to think), instead of a budget. */
  readonly adaptiveThinking?: boolean;
  /** The Responses API's conversation state. */
  readonly state: 'provider' | 'stateless' | 'harness';
  readonly seed: number | undefined;
}
