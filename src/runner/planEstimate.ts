/**
 * A plan's cost estimate (src/analysis/costEstimate.ts) from what the runner knows: what each agent
 * says of its calls on a game (its description's `costEstimate`, given the game's first frame when it
 * is a built-in game) and the budgets; or the per-action figures of an earlier run. An agent that may
 * call a model and says nothing of its calls is named as not estimated, never counted as free.
 * Used by `arcbench plan --estimate` and at the start of `run`, which refuses a plan whose minimum is
 * over `budgets.max_run_cost_usd`.
 */
import { type AgentCostEstimate, type AgentCostInput, estimatePlanCost, type PlanCostEstimate } from '../analysis/costEstimate.ts';
import { gridTextChars } from '../analysis/gridTextSize.ts';
import type { EstimateGame } from '../agent/description.ts';
import { ArcbenchError } from '../errors.ts';
import { gameCatalog } from '../games/catalog.ts';
import type { GameDescriptor } from '../protocol/index.ts';
import type { Budgets } from '../episode/budgets.ts';
import { describeAgent } from './agentDescription.ts';
import type { Experiment } from './config/loader.ts';
import type { Plan } from './plan.ts';
import type { RunFolder } from '../runfolder/readRunFolder.ts';

/** A frame of unknown content: a whole 64×64 grid as hex text, one row label each. */
const WHOLE_GRID_CHARS = 64 * 69 + 200;

export interface PlanEstimate extends PlanCostEstimate {
  /** Labels of the agents that may call a model but say nothing of their calls: not in the figures. */
  readonly not_estimated: readonly string[];
}

/** A built-in game's first frame as hex text and its actions; else a whole grid and every action. */
function estimateGame(game: GameDescriptor): EstimateGame {
  const builtIn = gameCatalog().find((known) => known.info.id === game.game_id);
  if (builtIn === undefined) return { game, frameTextChars: WHOLE_GRID_CHARS, actions: 7 };
  return { game, frameTextChars: gridTextChars(builtIn.start().frame()), actions: builtIn.info.availableActions.length };
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

/**
 * The actions an episode of this game is expected to play: budgets.max_actions, or fewer under
 * budgets.max_actions_per_level, which ends the episode once the first level has taken its multiple of
 * that level's baseline (an episode that plays on has won a level, which the model does not count on).
 * The baselines are the game list's (a built-in game's are always known).
 */
export function actionsPerEpisode(budgets: Budgets, game: GameDescriptor): number {
  const firstBaseline = game.baseline_actions?.[0];
  if (budgets.max_actions_per_level === undefined || firstBaseline === undefined) return budgets.max_actions;
  return Math.min(budgets.max_actions, Math.ceil(budgets.max_actions_per_level * firstBaseline));
}

/** The estimate of the plan's episodes (all of them, or those still to play). */
export function estimatePlan(experiment: Experiment, plan: Pick<Plan, 'episodes'>, from?: RunFolder): PlanEstimate {
  const { budgets } = experiment.config;
  const inputs: AgentCostInput[] = [];
  const notEstimated: string[] = [];
  for (const agent of experiment.agents) {
    const mine = plan.episodes.filter((episode) => episode.agent.label === agent.label);
    const { callsModel, costEstimate } = describeAgent(agent);
    const measured = measuredOf(from, agent.label);
    if (mine.length > 0 && measured === undefined && costEstimate === undefined && callsModel !== false) {
      notEstimated.push(agent.label);
      continue;
    }
    for (const game of [...new Set(mine.map((episode) => episode.game))]) {
      const episodes = mine.filter((episode) => episode.game === game).length;
      const calls = measured === undefined ? costEstimate?.(estimateGame(game)) : undefined;
      const base = {
        label: agent.label,
        episodes,
        actionsPerEpisode: actionsPerEpisode(budgets, game),
        ...(budgets.max_cost_usd === undefined ? {} : { maxEpisodeUsd: budgets.max_cost_usd }),
        pricing: calls?.pricing,
      };
      if (measured !== undefined) inputs.push({ ...base, measured });
      else if (calls !== undefined) inputs.push({ ...base, shape: calls.shape });
      else inputs.push(base);
    }
  }
  return { ...byAgent(estimatePlanCost(inputs)), not_estimated: notEstimated };
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

/** Why an agent has no figure, and how to get one. */
function notEstimatedLine(label: string): string {
  return (
    `${label}: cannot be estimated: it may call a model and does not say how (a plugin's describe, an agent process's hello: docs/agent-protocol.md); ` +
    '--from an earlier run estimates it from what it spent there'
  );
}

/** The estimate as sentences: one per agent that calls a model (or may, unestimated), and the total. */
export function estimateLines(estimate: PlanEstimate): string[] {
  const money = (value: number | null) => (value === null ? 'unknown (no pricing)' : `$${value.toFixed(2)}`);
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const lines = estimate.agents
    .filter((agent) => agent.basis !== 'none')
    .map(
      (agent) =>
        `${agent.label}: ~${count(agent.input_tokens)} input and ~${count(agent.output_tokens)} output tokens, ` +
        `expected ${money(agent.expected_usd)}, at least ${money(agent.minimum_usd)} (${agent.basis === 'measured' ? 'per action, as measured in the earlier run' : 'prompt model'})`,
    );
  const unknown = estimate.not_estimated.map(notEstimatedLine);
  if (lines.length === 0) return unknown.length > 0 ? unknown : ['estimated cost: no agent of this plan calls a model'];
  const without = estimate.not_estimated.length === 0 ? '' : `, without ${estimate.not_estimated.join(', ')}`;
  return [...lines, ...unknown, `estimated cost of the plan: expected ${money(estimate.expected_usd)}, at least ${money(estimate.minimum_usd)}${without}`];
}
