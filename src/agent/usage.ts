/**
 * Model usage, reported by agents per model call and summed by the runner per episode. The field names
 * are the ones every reader (episodes.jsonl, run.json, tables, compare) uses.
 */

/** One model call, as an agent reports it. */
export interface ModelCallUsage {
  readonly model: string;
  readonly input_tokens: number;
  /** Input tokens served from the provider's prompt cache (a part of input_tokens). */
  readonly cached_input_tokens?: number;
  /** Reasoning tokens (a part of output_tokens, as providers count them). */
  readonly reasoning_tokens?: number;
  readonly output_tokens: number;
  /** Dollars, when the agent knows them; null or absent: unknown. */
  readonly cost_usd?: number | null;
  /** `compaction`: a call that summarised older turns rather than chose an action. */
  readonly kind?: 'action' | 'compaction';
  /** Answered from a local response cache: no tokens were paid for. */
  readonly cached?: boolean;
}

/** Usage summed over calls. `cost_usd` is null as soon as one call's cost is unknown: never a silent 0. */
export interface UsageTotals {
  input_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  calls: number;
}

export function emptyUsage(): UsageTotals {
  return { input_tokens: 0, cached_input_tokens: 0, reasoning_tokens: 0, output_tokens: 0, cost_usd: 0, calls: 0 };
}

const count = (value: number | undefined, field: string): number => {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`reportUsage: ${field} must be a number ≥ 0, got ${String(value)}`);
  return value;
};

/** Adds one call to `totals` in place; a cached call counts as a call and costs nothing. */
export function addCall(totals: UsageTotals, call: ModelCallUsage): void {
  totals.input_tokens += count(call.input_tokens, 'input_tokens');
  totals.cached_input_tokens += count(call.cached_input_tokens, 'cached_input_tokens');
  totals.reasoning_tokens += count(call.reasoning_tokens, 'reasoning_tokens');
  totals.output_tokens += count(call.output_tokens, 'output_tokens');
  totals.calls += 1;
  const cost = call.cached === true ? 0 : call.cost_usd;
  totals.cost_usd = totals.cost_usd === null || cost === undefined || cost === null ? null : totals.cost_usd + count(cost, 'cost_usd');
}

/** The sum of several totals (episodes into a game, games into a run). */
export function sumUsage(parts: readonly UsageTotals[]): UsageTotals {
  const total = emptyUsage();
  for (const part of parts) {
    total.input_tokens += part.input_tokens;
    total.cached_input_tokens += part.cached_input_tokens;
    total.reasoning_tokens += part.reasoning_tokens;
    total.output_tokens += part.output_tokens;
    total.calls += part.calls;
    total.cost_usd = total.cost_usd === null || part.cost_usd === null ? null : total.cost_usd + part.cost_usd;
  }
  return total;
}
