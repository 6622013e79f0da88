/**
 * A model call's transcript, as an agent keeps it next to its usage (`keepTranscript` beside
 * `reportUsage` in the agent's context): what was sent and what came back. The runner stores it with
 * the episode, secrets redacted, each distinct message once (src/runfolder/transcriptFile.ts). Any field may be
 * left out; what is given must be JSON.
 */
import type { ModelCallUsage } from './usage.ts';

export interface ModelCallRequest {
  /** Chat-format messages as sent (`{ role, content, … }`): Chat Completions, Anthropic. */
  readonly messages?: readonly unknown[];
  /** Input items as sent (the Responses API). */
  readonly input?: readonly unknown[];
  /** A system prompt or instructions sent apart from the messages. */
  readonly instructions?: unknown;
  readonly tools?: readonly unknown[];
  /** The main parameters: temperature, max tokens, reasoning effort, seed… */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface ModelCallResponse {
  /** The reply's text (or content blocks). */
  readonly content?: unknown;
  readonly tool_calls?: readonly unknown[];
  /** Reasoning summaries, where the provider returns them. */
  readonly reasoning?: unknown;
  /** Output items as received (the Responses API). */
  readonly output?: readonly unknown[];
  /** The answer's id, where a later request can name it (the Responses API's previous_response_id). */
  readonly id?: string;
}

export interface ModelCallTranscript {
  readonly request: ModelCallRequest;
  readonly response: ModelCallResponse;
  /** The same figures the call's reportUsage was given (`arcbench verify` sums both and compares). */
  readonly usage: ModelCallUsage;
}
