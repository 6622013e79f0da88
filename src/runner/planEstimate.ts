/**
 * A plan's cost estimate (src/analysis/costEstimate.ts) from what the runner knows: each agent's params
 * (an agent whose params name a `model` calls one: its `pricing`, `api`, `base_url`, `frame_format`,
 * `context_tokens`, `max_output_tokens`, `reasoning_effort`, `thinking_budget`, `system_prompt`, `output`,
 * `max_actions_per_turn` or `batch_size`), each game's first
 * frame when it is a built-in game, and the budgets; or the per-action figures of an earlier run.
 * Used by `arcbench plan --estimate` and at the start of `run`, which refuses a plan whose minimum is
 * over `budgets.max_run_cost_usd`.
 */
import { type AgentCostEstimate, type AgentCostInput, type CallShape, estimatePlanCost, type PlanCostEstimate } from '../analysis/costEstimate.ts';
import { gridTextChars } from '../analysis/gridTextSize.ts';
import type { Pricing } from '../agent/usage.ts';
import { ArcbenchError } from '../errors.ts';
import { gameCatalog } from '../games/catalog.ts';
import type { GameDescriptor } from '../protocol/index.ts';
import type { Experiment, ResolvedAgent } from './config/loader.ts';
import type { Plan } from './plan.ts';
import type { RunFolder } from '../runfolder/readRunFolder.ts';

/** Tokens are counted as characters / 4, the usual rule of thumb for English and JSON. */
const CHARS_PER_TOKEN = 4;
/** The built-in llm agent's system prompt, about; a `system_prompt` param is measured instead. */
const DEFAULT_SYSTEM_CHARS = 860;
/** One tool (an action) as a JSON schema; the JSON answer format sends its instructions instead. */
const TOOL_CHARS = 260;
const TOOLS_BASE_CHARS = 500;
const JSON_INSTRUCTIONS_CHARS = 600;
/** A turn's words besides its frame: game, state, levels, available actions, what the last action did. */
const TURN_TEXT_CHARS = 260;
/** The model's reply (a tool call with its rationale) and the tool's answer, as they stay in the conversation. */
const REPLY_CHARS = 330;
/** A frame of unknown content: a whole 64×64 grid as hex text, one row label each. */
const WHOLE_GRID_CHARS = 64 * 69 + 200;
/** A 512×512 image at high detail, as OpenAI counts it (85 + 170 per 512-pixel tile). */
const IMAGE_TOKENS = 765;
/** A diff frame, against the whole grid's text: about a third, over an episode. */
const DIFF_SHARE = 1 / 3;
const DEFAULT_CONTEXT_TOKENS = 16_000;
/** A reply: a tool call and a sentence or two of rationale. */
const DEFAULT_OUTPUT_TOKENS = 120;
const REASONING_TOKENS: Record<string, number> = { none: 0, minimal: 200, low: 800, medium: 2_500, high: 8_000, xhigh: 16_000 };

interface ModelParams {
  model?: unknown;
  pricing?: Pricing;
  frame_format?: string;
  context_tokens?: number;
  max_output_tokens?: number;
  reasoning_effort?: string;
  system_prompt?: string;
  output?: string;
  batch_size?: number;
  /** The built-in llm agent's: which API (and so which prompt cache), and actions planned per reply. */
  api?: string;
  base_url?: string;
  max_actions_per_turn?: number;
  thinking_budget?: number;
}

/**
 * How much of each call's repeated prefix the API's prompt cache serves, and whether writing to it is
 * billed. Anthropic caches at the breakpoints the agent marks and bills the writes; the Responses API
 * caches automatically (its `state` changes where the conversation is kept, not what is billed as
 * input); a Chat Completions server may have no cache at all (OpenAI's own does: the default api for
 * its URL is responses, so chat is assumed to be another server's).
 */
function cacheOf(params: ModelParams): Pick<CallShape, 'cachedShare' | 'cacheWrites'> {
  const api = params.api ?? (params.base_url === undefined || /^https:\/\/api\.openai\.com\//.test(params.base_url) ? 'responses' : 'chat');
  if (api === 'anthropic') return { cachedShare: 1, cacheWrites: true };
  if (api === 'responses') return { cachedShare: 1 };
  return { cachedShare: 0 };
}

/** The agent's params, when they name a model (it calls one). */
function modelParams(agent: ResolvedAgent): ModelParams | undefined {
  const params = agent.params as ModelParams | null;
  return params !== null && typeof params === 'object' && typeof params.model === 'string' ? params : undefined;
}

/** A built-in game's first frame as hex text and its actions; else a whole grid and every action. */
function gameFacts(game: GameDescriptor): { frameChars: number; actions: number } {
  const builtIn = gameCatalog().find((known) => known.info.id === game.game_id);
  if (builtIn === undefined) return { frameChars: WHOLE_GRID_CHARS, actions: 7 };
  return { frameChars: gridTextChars(builtIn.start().frame()), actions: builtIn.info.availableActions.length };
}

export function callShape(params: ModelParams, game: GameDescriptor): CallShape {
  const format = params.frame_format ?? 'text';
  const facts = gameFacts(game);
  const frameTokens = format === 'image' ? IMAGE_TOKENS : (facts.frameChars * (format === 'diff' ? DIFF_SHARE : 1)) / CHARS_PER_TOKEN;
  // One tool per action, and RESET.
  const tools = params.output === 'json' ? JSON_INSTRUCTIONS_CHARS : TOOLS_BASE_CHARS + TOOL_CHARS * (facts.actions + 1);
  const reasoning = params.thinking_budget ?? REASONING_TOKENS[params.reasoning_effort ?? 'none'] ?? 0;
  // A batch is planned in one reply: a tool call (and its prediction) per action, each answered.
  const actionsPerCall = params.max_actions_per_turn ?? params.batch_size ?? 1;
  const output = DEFAULT_OUTPUT_TOKENS * actionsPerCall + reasoning;
  return {
    fixedTokens: ((params.system_prompt?.length ?? DEFAULT_SYSTEM_CHARS) + tools) / CHARS_PER_TOKEN,
    turnTokens: (TURN_TEXT_CHARS + REPLY_CHARS * actionsPerCall) / CHARS_PER_TOKEN + frameTokens,
    contextTokens: params.context_tokens ?? DEFAULT_CONTEXT_TOKENS,
    outputTokens: params.max_output_tokens === undefined ? output : Math.min(output, params.max_output_tokens),
    actionsPerCall,
    ...cacheOf(params),
  };
}

/** Per action, from an earlier run's episodes of this agent label; undefined when it has none. */
function measuredOf(from: RunFolder | undefined, label: string) {
  const episodes = from?.episodes.filter((e) => e.agent === label && e.actions > 0) ?? [];
  const actions = episodes.reduce((sum, e) => sum + e.actions, 0);
  if (actions === 0) return undefined;
  const sum = (pick: (e: (typeof episodes)[number]) => number) => episodes.reduce((total, e) => total + pick(e), 0) / actions;
  const unknown = episodes.some((e) => e.usage.cost_usd === null);
  return {
    input_tokens: sum((e) => e.usage.input_tokens),
    cached_input_tokens: sum((e) => e.usage.cached_input_tokens),
    output_tokens: sum((e) => e.usage.output_tokens),
    cost_usd: unknown ? null : sum((e) => e.usage.cost_usd ?? 0),
  };
}

/** The estimate of the plan's episodes (all of them, or those still to play). */
export function estimatePlan(experiment: Experiment, plan: Pick<Plan, 'episodes'>, from?: RunFolder): PlanCostEstimate {
  const actions = experiment.config.budgets.max_actions;
  const inputs: AgentCostInput[] = [];
  for (const agent of experiment.agents) {
    const mine = plan.episodes.filter((episode) => episode.agent.label === agent.label);
    const params = modelParams(agent);
    const measured = measuredOf(from, agent.label);
    for (const game of [...new Set(mine.map((episode) => episode.game))]) {
      const episodes = mine.filter((episode) => episode.game === game).length;
      const base = { label: agent.label, episodes, actionsPerEpisode: actions, pricing: params?.pricing };
      if (measured !== undefined) inputs.push({ ...base, measured });
      else if (params !== undefined) inputs.push({ ...base, shape: callShape(params, game) });
      else inputs.push(base);
    }
  }
  return byAgent(estimatePlanCost(inputs));
}

/** One line per agent label (the estimate has one per agent and game). */
function byAgent(estimate: PlanCostEstimate): PlanCostEstimate {
  const merged = new Map<string, AgentCostEstimate>();
  for (const part of estimate.agents) {
    const seen = merged.get(part.label);
    const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    merged.set(
      part.label,
      seen === undefined
        ? part
        : {
            ...seen,
            calls: seen.calls + part.calls,
            input_tokens: seen.input_tokens + part.input_tokens,
            output_tokens: seen.output_tokens + part.output_tokens,
            expected_usd: add(seen.expected_usd, part.expected_usd),
            minimum_usd: add(seen.minimum_usd, part.minimum_usd),
          },
    );
  }
  return { ...estimate, agents: [...merged.values()] };
}

/** A plan whose estimated minimum is over the run's dollar budget: refused before any call. */
export class EstimateOverBudgetError extends ArcbenchError {
  constructor(message: string) {
    super('ESTIMATE_OVER_BUDGET', message);
  }
}

/** Throws when the estimate's minimum is over budgets.max_run_cost_usd (unless `force`). */
export function refuseOverBudget(experiment: Experiment, estimate: PlanCostEstimate, force: boolean): void {
  const budget = experiment.config.budgets.max_run_cost_usd;
  if (force || budget === undefined || estimate.minimum_usd === null || estimate.minimum_usd <= budget) return;
  throw new EstimateOverBudgetError(
    `the plan is estimated to cost at least $${estimate.minimum_usd.toFixed(2)} (expected $${(estimate.expected_usd ?? estimate.minimum_usd).toFixed(2)}), ` +
      `over budgets.max_run_cost_usd of $${budget.toFixed(2)}; raise the budget, play fewer episodes or actions, or pass --force to run anyway (the budget still stops the run)`,
  );
}

/** The estimate as sentences: one per agent that calls a model, and the total. */
export function estimateLines(estimate: PlanCostEstimate): string[] {
  const money = (value: number | null) => (value === null ? 'unknown (no pricing)' : `$${value.toFixed(2)}`);
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const lines = estimate.agents
    .filter((agent) => agent.basis !== 'none')
    .map(
      (agent) =>
        `${agent.label}: ~${count(agent.input_tokens)} input and ~${count(agent.output_tokens)} output tokens, ` +
        `expected ${money(agent.expected_usd)}, at least ${money(agent.minimum_usd)} (${agent.basis === 'measured' ? 'per action, as measured in the earlier run' : 'prompt model'})`,
    );
  if (lines.length === 0) return ['estimated cost: no agent of this plan calls a model'];
  return [...lines, `estimated cost of the plan: expected ${money(estimate.expected_usd)}, at least ${money(estimate.minimum_usd)}`];
}
