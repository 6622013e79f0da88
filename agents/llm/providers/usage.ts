/**
 * A call's tokens as every provider's answer is read into them, and their dollars. Cached input is a
 * part of the input (as the runner counts it); cache writes (Anthropic's cache_creation_input_tokens)
 * are a part of the input too, priced by `cache_write` when given, else as fresh input.
 */
import { costOfCall, type Pricing } from 'arcbench';

export interface UsageFigures {
  readonly model: string;
  /** Every input token of the request: fresh, read from the cache and written to it. */
  readonly input_tokens: number;
  readonly cached_input_tokens: number;
  readonly cache_write_tokens?: number;
  readonly reasoning_tokens: number;
  readonly output_tokens: number;
  /** False when the server sent no counts: the figures are zeros and the cost is unknown. */
  readonly counted?: boolean;
}

export interface AgentPricing extends Pricing {
  /** Dollars per million input tokens written to the prompt cache (Anthropic's cache writes). */
  readonly cache_write?: number;
}

/** Dollars to a trillionth, as the runner keeps them. */
const round = (dollars: number) => Math.round(dollars * 1e12) / 1e12;

export function dollarsOf(figures: UsageFigures, pricing: AgentPricing | undefined): number | null {
  if (pricing === undefined) return null;
  const written = Math.min(figures.cache_write_tokens ?? 0, figures.input_tokens - figures.cached_input_tokens);
  const rest = costOfCall({ ...figures, input_tokens: figures.input_tokens - written }, pricing);
  return rest === null ? null : round(rest + (written * (pricing.cache_write ?? pricing.input)) / 1e6);
}
