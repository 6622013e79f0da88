/**
 * The answer a call gets once the episode's dollar budget is spent: the error each provider gives when
 * an account's money runs out, in that provider's JSON, so the agent's SDK raises it as it would raise
 * the provider's (OpenAI: 429 insufficient_quota, RateLimitError; Anthropic: 402 billing_error).
 * `x-should-retry: false` keeps both SDKs from retrying it: more money will not come.
 */
export interface Refusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export function budgetRefusal(route: 'openai' | 'anthropic', message: string): Refusal {
  const headers = { 'content-type': 'application/json', 'x-should-retry': 'false' };
  if (route === 'anthropic') return { status: 402, headers, body: JSON.stringify({ type: 'error', error: { type: 'billing_error', message } }) };
  return { status: 429, headers, body: JSON.stringify({ error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }) };
}

/** What the refused call is told, and what the episode's record says after it. */
export function budgetSpentSentence(spent: number, budget: number): string {
  return `arcbench: the episode's dollar budget (budgets.max_cost_usd = $${budget}) is spent ($${spent.toFixed(6)} so far); no more model calls in this episode`;
}

/** A route of the gateway that the path names no API of. */
export function unknownRoute(path: string): Refusal {
  const message = `arcbench's model gateway has no route for ${path}; it forwards /openai/… (OPENAI_BASE_URL) and /anthropic/… (ANTHROPIC_BASE_URL)`;
  return {
    status: 404,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'not_found' } }),
  };
}
