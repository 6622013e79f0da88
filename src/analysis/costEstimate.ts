/**
 * What a plan will cost before it runs: tokens and dollars per agent, from a per-call model of the
 * prompt or from the measured figures of an earlier run. Pure arithmetic; the runner gathers the
 * inputs (src/runner/planEstimate.ts).
 *
 * The prompt model: a call sends a fixed part (system prompt, tools) and the conversation so far,
 * which grows by one turn (turn text, frame, the model's reply, the tool's answer) per call until the
 * agent's context size, where older turns are summarised and the context stays about that size. An
 * episode plays all the actions its budgets allow (an LLM rarely wins early; a win only makes it
 * cheaper): the runner gives that count (max_actions, or less under a per-level budget), and an
 * episode's dollars stop at its own dollar budget (`maxEpisodeUsd`), where the episode is ended. The
 * expected figure bills the repeated prefix of each call (all but its newest turn) at the cached-input
 * price for the share the API's prompt cache is expected to serve (`cachedShare`: Anthropic's marked
 * breakpoints and OpenAI's Responses API serve it all; a Chat Completions server may serve none), the
 * rest at the input price, and the new turn at the price of writing it to the cache where the API
 * charges for that (`pricing.cache_write`, Anthropic); the minimum bills the whole repeated prefix cached.
 */
import type { CallShape } from '../agent/description.ts';
import { type Pricing, roundDollars } from '../agent/usage.ts';

export type { CallShape };

/** Measured per action in an earlier run (`--from RUN`). */
export interface PerActionFigures {
  readonly input_tokens: number;
  readonly cached_input_tokens: number;
  readonly output_tokens: number;
  /** Null when the earlier run had no price for a call. */
  readonly cost_usd: number | null;
}

export interface AgentCostInput {
  readonly label: string;
  readonly episodes: number;
  /** The actions an episode is expected to play: its budgets' cap on them. */
  readonly actionsPerEpisode: number;
  /** budgets.max_cost_usd: an episode's dollars stop there (and its tokens with them). */
  readonly maxEpisodeUsd?: number;
  readonly pricing: Pricing | undefined;
  /** Either a prompt model or measured figures; neither: an agent that calls no model. */
  readonly shape?: CallShape;
  readonly measured?: PerActionFigures;
}

export interface AgentCostEstimate {
  readonly label: string;
  /** `model` (the prompt model), `measured` (an earlier run) or `none` (calls no model). */
  readonly basis: 'model' | 'measured' | 'none';
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Null without prices. */
  readonly expected_usd: number | null;
  readonly minimum_usd: number | null;
}

export interface PlanCostEstimate {
  readonly agents: readonly AgentCostEstimate[];
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Null when an agent that calls a model has no prices. */
  readonly expected_usd: number | null;
  readonly minimum_usd: number | null;
}

/** Tokens are counted as characters / 4, the usual rule of thumb for English, JSON and hex grids. */
export function tokensOfChars(chars: number): number {
  return chars / 4;
}

const dollars = (tokens: number, perMillion: number) => (tokens * perMillion) / 1_000_000;

/** One episode under the prompt model: its calls, input tokens, and how many of them repeat a prefix. */
export function episodeTokens(shape: CallShape, actions: number): { calls: number; input: number; repeated: number; output: number } {
  const calls = Math.ceil(actions / Math.max(1, shape.actionsPerCall));
  let input = 0;
  let repeated = 0;
  for (let call = 0; call < calls; call++) {
    const conversation = Math.min((call + 1) * shape.turnTokens, Math.max(shape.turnTokens, shape.contextTokens - shape.fixedTokens));
    input += shape.fixedTokens + conversation;
    if (call > 0) repeated += shape.fixedTokens + conversation - shape.turnTokens;
  }
  return { calls, input, repeated, output: calls * shape.outputTokens };
}

/** One episode's dollars under the prompt model, `cachedShare` of its repeated prefix billed as cached. */
function episodeDollars(one: ReturnType<typeof episodeTokens>, shape: CallShape, pricing: Pricing, cachedShare: number): number {
  const cached = one.repeated * cachedShare;
  const fresh = one.input - one.repeated;
  const freshPrice = shape.cacheWrites ? (pricing.cache_write ?? pricing.input) : pricing.input;
  return (
    dollars(fresh, freshPrice) +
    dollars(one.repeated - cached, pricing.input) +
    dollars(cached, pricing.cached_input ?? pricing.input) +
    dollars(one.output, pricing.output)
  );
}

/**
 * The share of an episode's calls made before its dollar budget ends it: the budget is checked before
 * each decision, so the episode stops once it has spent it (the call that crosses it is counted whole
 * here, as a bound: it never exceeds the budget in the figures).
 */
function shareWithinBudget(episodeUsd: number | null, cap: number | undefined): number {
  if (cap === undefined || episodeUsd === null || episodeUsd <= cap) return 1;
  return cap / episodeUsd;
}

function fromModel(agent: AgentCostInput, shape: CallShape): AgentCostEstimate {
  const one = episodeTokens(shape, agent.actionsPerEpisode);
  const { pricing, episodes } = agent;
  const expectedOne = pricing === undefined ? null : episodeDollars(one, shape, pricing, shape.cachedShare ?? 0);
  const minimumOne = pricing === undefined ? null : episodeDollars(one, shape, pricing, 1);
  const share = shareWithinBudget(expectedOne, agent.maxEpisodeUsd);
  const capped = (value: number | null) => (value === null ? null : roundDollars(episodes * Math.min(value, agent.maxEpisodeUsd ?? value)));
  return {
    label: agent.label,
    basis: 'model',
    calls: episodes * Math.ceil(one.calls * share),
    input_tokens: episodes * one.input * share,
    output_tokens: episodes * one.output * share,
    expected_usd: capped(expectedOne),
    minimum_usd: capped(minimumOne),
  };
}

function fromMeasured(agent: AgentCostInput, measured: PerActionFigures): AgentCostEstimate {
  const oneUsd = measured.cost_usd === null ? null : measured.cost_usd * agent.actionsPerEpisode;
  const share = shareWithinBudget(oneUsd, agent.maxEpisodeUsd);
  const actions = agent.episodes * agent.actionsPerEpisode * share;
  const cost = oneUsd === null ? null : roundDollars(agent.episodes * Math.min(oneUsd, agent.maxEpisodeUsd ?? oneUsd));
  return {
    label: agent.label,
    basis: 'measured',
    calls: 0,
    input_tokens: Math.round(measured.input_tokens * actions),
    output_tokens: Math.round(measured.output_tokens * actions),
    // Measured figures already hold the earlier run's cache hits: one figure is both.
    expected_usd: cost,
    minimum_usd: cost,
  };
}

const sumOrNull = (values: ReadonlyArray<number | null>) => (values.includes(null) ? null : roundDollars(values.reduce<number>((a, b) => a + (b ?? 0), 0)));

export function estimatePlanCost(agents: readonly AgentCostInput[]): PlanCostEstimate {
  const estimates = agents.map((agent): AgentCostEstimate => {
    if (agent.measured !== undefined) return fromMeasured(agent, agent.measured);
    if (agent.shape !== undefined) return fromModel(agent, agent.shape);
    return { label: agent.label, basis: 'none', calls: 0, input_tokens: 0, output_tokens: 0, expected_usd: 0, minimum_usd: 0 };
  });
  return {
    agents: estimates,
    input_tokens: estimates.reduce((sum, a) => sum + a.input_tokens, 0),
    output_tokens: estimates.reduce((sum, a) => sum + a.output_tokens, 0),
    expected_usd: sumOrNull(estimates.map((a) => a.expected_usd)),
    minimum_usd: sumOrNull(estimates.map((a) => a.minimum_usd)),
  };
}
