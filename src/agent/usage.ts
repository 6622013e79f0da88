/**
 * Model usage, reported by agents per model call and summed by the runner per step, episode, game,
 * agent and run. The field names are the ones every reader (episodes.jsonl, run.json, tables, compare)
 * uses. Tokens follow the providers' convention: cached input tokens are a part of the input tokens,
 * reasoning tokens a part of the output tokens.
 */
import { MAX_JSON_FIELD_BYTES } from '../protocol/limits.ts';

/** One model call, as an agent reports it. */
export interface ModelCallUsage {
  readonly model: string;
  readonly input_tokens: number;
  /** Input tokens served from the provider's prompt cache (a part of input_tokens). */
  readonly cached_input_tokens?: number;
  /** Reasoning tokens (a part of output_tokens, as providers count them). */
  readonly reasoning_tokens?: number;
  readonly output_tokens: number;
  /** Dollars, when the agent knows them (see costOfCall); null or absent: unknown. */
  readonly cost_usd?: number | null;
  /** `compaction`: a call that summarised older turns rather than chose an action. */
  readonly kind?: 'action' | 'compaction';
  /** Answered from a local response cache: the provider was not called, and nothing was paid. */
  readonly cached?: boolean;
}

/** One call as episodes.jsonl keeps it: every field present, the step it was made in. */
export interface ModelCallRecord {
  step: number;
  model: string;
  kind: 'action' | 'compaction';
  input_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  cached: boolean;
}

/** Usage summed over calls. `cost_usd` is null as soon as one call's cost is unknown: never a silent 0. */
export interface UsageTotals {
  input_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  calls: number;
  /** Calls answered from a response cache (counted in `calls` too; their tokens count, their cost is 0). */
  cached_calls: number;
}

/** Prices in dollars per million tokens, as providers publish them. */
export interface Pricing {
  readonly input: number;
  /** Price of cached input tokens; when absent they cost the input price (never under-counted). */
  readonly cached_input?: number;
  /** Price of input written to the prompt cache (Anthropic's breakpoints); when absent, the input price. */
  readonly cache_write?: number;
  readonly output: number;
}

export function emptyUsage(): UsageTotals {
  return { input_tokens: 0, cached_input_tokens: 0, reasoning_tokens: 0, output_tokens: 0, cost_usd: 0, calls: 0, cached_calls: 0 };
}

/**
 * The dollars of one call at these prices, or null without prices. Cached input tokens are billed at
 * the cached price, the rest of the input at the input price; reasoning tokens are already in the
 * output tokens and are not billed twice.
 */
export function costOfCall(call: Pick<ModelCallUsage, 'input_tokens' | 'cached_input_tokens' | 'output_tokens'>, pricing: Pricing | undefined): number | null {
  if (pricing === undefined) return null;
  const cached = Math.min(call.cached_input_tokens ?? 0, call.input_tokens);
  const dollars = (call.input_tokens - cached) * pricing.input + cached * (pricing.cached_input ?? pricing.input) + call.output_tokens * pricing.output;
  return roundDollars(dollars / 1_000_000);
}

const count = (value: unknown, field: string, integer = true): number => {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new RangeError(`reportUsage: ${field} must be a ${integer ? 'whole ' : ''}number ≥ 0, got ${JSON.stringify(value)}`);
  }
  return value;
};

/** A reported call checked whole (before anything is added) and spelled out; a cached call costs 0. */
export function callRecord(call: ModelCallUsage, step: number): ModelCallRecord {
  if (call === null || typeof call !== 'object') throw new TypeError(`reportUsage: expected { model, input_tokens, output_tokens, … }, got ${String(call)}`);
  if (typeof call.model !== 'string' || call.model === '') throw new TypeError('reportUsage: model must be the model name, e.g. "gpt-4.1-mini"');
  const cached = call.cached === true;
  const cost = cached ? 0 : call.cost_usd === undefined || call.cost_usd === null ? null : count(call.cost_usd, 'cost_usd', false);
  return {
    step,
    model: call.model,
    kind: call.kind === 'compaction' ? 'compaction' : 'action',
    input_tokens: count(call.input_tokens, 'input_tokens'),
    cached_input_tokens: count(call.cached_input_tokens, 'cached_input_tokens'),
    reasoning_tokens: count(call.reasoning_tokens, 'reasoning_tokens'),
    output_tokens: count(call.output_tokens, 'output_tokens'),
    cost_usd: cost,
    cached,
  };
}

/** Adds one checked call to `totals` in place. */
export function addCall(totals: UsageTotals, call: ModelCallRecord): void {
  totals.input_tokens += call.input_tokens;
  totals.cached_input_tokens += call.cached_input_tokens;
  totals.reasoning_tokens += call.reasoning_tokens;
  totals.output_tokens += call.output_tokens;
  totals.calls += 1;
  if (call.cached) totals.cached_calls += 1;
  totals.cost_usd = totals.cost_usd === null || call.cost_usd === null ? null : roundDollars(totals.cost_usd + call.cost_usd);
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
    total.cached_calls += part.cached_calls ?? 0;
    total.cost_usd = total.cost_usd === null || part.cost_usd === null ? null : roundDollars(total.cost_usd + part.cost_usd);
  }
  return total;
}

/** Dollars to a trillionth (a token costs at least ~1e-8), without float noise: 0.1 + 0.2 is 0.3. */
export function roundDollars(dollars: number): number {
  return Math.round(dollars * 1e12) / 1e12;
}

/**
 * The `reasoning` an action is sent with when its step made model calls: the step's usage (model,
 * tokens, cost) and the agent's own reasoning as `rationale`. It fits the service's limit, measured as
 * the official harness measures it (compact JSON, UTF-8 bytes): a rationale too long is cut, never the
 * usage.
 */
export function reasoningWithUsage(reasoning: unknown, calls: readonly ModelCallRecord[]): unknown {
  if (calls.length === 0) return reasoning;
  const totals = emptyUsage();
  for (const call of calls) addCall(totals, call);
  const models = [...new Set(calls.map((call) => call.model))].join(',').slice(0, 200);
  const { cached_calls, ...tokens } = totals;
  const record: Record<string, unknown> = {
    model: models,
    ...tokens,
    cost_usd: totals.cost_usd === null ? null : roundDollars(totals.cost_usd),
    ...(cached_calls > 0 ? { cached_calls } : {}),
  };
  if (reasoning === undefined) return record;
  const room = MAX_JSON_FIELD_BYTES - Buffer.byteLength(JSON.stringify({ ...record, rationale: '' }), 'utf8');
  const whole = { ...record, rationale: reasoning };
  if (Buffer.byteLength(JSON.stringify(whole), 'utf8') <= MAX_JSON_FIELD_BYTES) return whole;
  const text = typeof reasoning === 'string' ? reasoning : JSON.stringify(reasoning);
  return { ...record, rationale: cutToJsonBytes(text, room) };
}

/** The longest prefix of `text`, plus an ellipsis, whose JSON string takes at most `bytes` bytes. */
function cutToJsonBytes(text: string, bytes: number): string {
  const fits = (length: number) => Buffer.byteLength(JSON.stringify(`${text.slice(0, length)}…`), 'utf8') <= bytes;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  // Never end on half a surrogate pair: JSON would carry a lone \ud83d escape for it.
  const end = low > 0 && /[\ud800-\udbff]/.test(text[low - 1]!) ? low - 1 : low;
  return `${text.slice(0, end)}…`;
}
