/**
 * What the offline model server answers one call with, whatever the API: a tool call or a text, and the
 * usage it declares for the call (so the agent's token and dollar figures are exercised exactly).
 */

export interface DeclaredUsage {
  /** Every input token of the call, cached ones included. */
  readonly input_tokens: number;
  /** The part of input_tokens served from a prompt cache. */
  readonly cached_input_tokens: number;
  readonly output_tokens: number;
}

export interface ToolAnswer {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

export interface Answer {
  /** Tool calls, in order (an agent that plans several actions a reply may take them all). */
  readonly toolCalls: readonly ToolAnswer[];
  /** Text of the reply, besides or instead of tool calls. */
  readonly text?: string;
  readonly usage: DeclaredUsage;
}

/** A tool the request offers, whatever API it came in: its name and its arguments' JSON schema. */
export interface OfferedTool {
  readonly name: string;
  readonly parameters: Record<string, unknown>;
}
