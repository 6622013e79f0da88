/** A usage total as the page shows it: null when no model was called (the page then shows no cost). */
import type { UsageTotals } from '../agent/usage.ts';
import type { UsageFigures } from './pageData.ts';

export function usageFigures(usage: UsageTotals | undefined): UsageFigures | null {
  if (usage === undefined || usage.calls === 0) return null;
  return {
    calls: usage.calls,
    input_tokens: usage.input_tokens,
    cached_input_tokens: usage.cached_input_tokens,
    output_tokens: usage.output_tokens,
    reasoning_tokens: usage.reasoning_tokens,
    cost_usd: usage.cost_usd,
  };
}
