/**
 * The llm agent's calls on a game, for the runner's cost estimate (`plan --estimate`, the budget check
 * at the start of `run`): what its prompts hold, in the sizes this agent sends. The arithmetic of a
 * plan (calls, a conversation growing to context_tokens, prices) is the runner's.
 */
import { type CallEstimate, type EstimateGame, type Pricing, tokensOfChars } from 'arcbench';
import type { ApiName } from './providers/index.ts';

/** The params the estimate reads, as parsed (defaults applied). */
export interface CostParams {
  readonly pricing?: Pricing;
  readonly frame_format: string;
  readonly output: string;
  readonly max_actions_per_turn: number;
  readonly context_tokens: number;
  readonly max_output_tokens?: number;
  readonly reasoning_effort?: string;
  readonly thinking_budget?: number;
  readonly system_prompt?: string;
}

/** The built-in system prompt, about; a `system_prompt` param is measured instead. */
const DEFAULT_SYSTEM_CHARS = 860;
/** One tool (an action) as a JSON schema; the JSON answer format sends its instructions instead. */
const TOOL_CHARS = 260;
const TOOLS_BASE_CHARS = 500;
const JSON_INSTRUCTIONS_CHARS = 600;
/** A turn's words besides its frame: game, state, levels, available actions, what the last action did. */
const TURN_TEXT_CHARS = 260;
/** The model's reply (a tool call with its rationale) and the tool's answer, as they stay in the conversation. */
const REPLY_CHARS = 330;
/** A 512×512 image at high detail, as OpenAI counts it (85 + 170 per 512-pixel tile). */
const IMAGE_TOKENS = 765;
/** A diff frame, against the whole grid's text: about a third, over an episode. */
const DIFF_SHARE = 1 / 3;
/** A reply: a tool call and a sentence or two of rationale. */
const OUTPUT_TOKENS = 120;
const REASONING_TOKENS: Record<string, number> = { none: 0, minimal: 200, low: 800, medium: 2_500, high: 8_000, xhigh: 16_000, max: 32_000 };

/**
 * How much of each call's repeated prefix the API's prompt cache serves, and whether writing to it is
 * billed. Anthropic caches at the breakpoints the agent marks and bills the writes; the Responses API
 * caches automatically (its `state` changes where the conversation is kept, not what is billed as
 * input); a Chat Completions server may have no cache at all (OpenAI's own does, but its default api
 * is responses, so chat is assumed to be another server's).
 */
function cacheOf(api: ApiName) {
  if (api === 'anthropic') return { cachedShare: 1, cacheWrites: true };
  if (api === 'responses') return { cachedShare: 1 };
  return { cachedShare: 0 };
}

export function callEstimate(params: CostParams, api: ApiName, { frameTextChars, actions }: EstimateGame): CallEstimate {
  const format = params.frame_format;
  const frameTokens = format === 'image' ? IMAGE_TOKENS : tokensOfChars(frameTextChars * (format === 'diff' ? DIFF_SHARE : 1));
  // One tool per action, and RESET.
  const tools = params.output === 'json' ? JSON_INSTRUCTIONS_CHARS : TOOLS_BASE_CHARS + TOOL_CHARS * (actions + 1);
  const reasoning = params.thinking_budget ?? REASONING_TOKENS[params.reasoning_effort ?? 'none'] ?? 0;
  // A batch is planned in one reply: a tool call (and its prediction) per action, each answered.
  const actionsPerCall = params.max_actions_per_turn;
  const output = OUTPUT_TOKENS * actionsPerCall + reasoning;
  const shape = {
    fixedTokens: tokensOfChars((params.system_prompt?.length ?? DEFAULT_SYSTEM_CHARS) + tools),
    turnTokens: tokensOfChars(TURN_TEXT_CHARS + REPLY_CHARS * actionsPerCall) + frameTokens,
    contextTokens: params.context_tokens,
    outputTokens: params.max_output_tokens === undefined ? output : Math.min(output, params.max_output_tokens),
    actionsPerCall,
    ...cacheOf(api),
  };
  return params.pricing === undefined ? { shape } : { shape, pricing: params.pricing };
}
