/**
 * An agent entry's `model_gateway:` (a Python agent's, or any agent process's): where its model calls
 * go on to, the key they go with when the config gives one, and the prices its calls are billed at.
 * Only zod here: the config schema takes this in, and the gateway itself loads when an episode starts.
 */
import { z } from 'zod';
import type { Pricing } from '../usage.ts';

const dollarsPerMillion = z.number({ error: 'expected dollars per million tokens, e.g. 2.5' }).min(0);

const pricingSchema = z.strictObject({
  input: dollarsPerMillion,
  cached_input: dollarsPerMillion.optional(),
  cache_write: dollarsPerMillion.optional().describe('Input written to the prompt cache (Anthropic); default: the input price.'),
  output: dollarsPerMillion,
});

export const modelGatewaySchema = z
  .strictObject({
    upstream: z
      .url({ error: 'expected the base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1' })
      .default('https://api.openai.com/v1')
      .describe("Where the agent's OpenAI SDK calls go on to (an OpenAI-compatible base URL, with its /v1)."),
    anthropic_upstream: z
      .url({ error: 'expected the base URL of the Anthropic API, e.g. https://api.anthropic.com' })
      .default('https://api.anthropic.com')
      .describe("Where the agent's Anthropic SDK calls go on to."),
    api_key: z
      .string()
      .min(1, { error: 'the key is empty; set it, e.g. "${OPENAI_API_KEY}", or leave api_key out to send the key the agent sends' })
      .optional()
      .describe('The key sent upstream in place of the agent\'s own (e.g. "${OPENAI_API_KEY}"); default: the key the agent\'s SDK sends.'),
    pricing: z
      .union([pricingSchema, z.record(z.string().min(1), pricingSchema)], {
        error: 'expected { input, output, cached_input? } dollars per million tokens, or a mapping from model name to such prices',
      })
      .optional()
      .describe('Dollars per million tokens, for every model or per model name (a name also matches its dated versions); without it costs are unknown.'),
  })
  .describe(
    'A local model gateway for this agent process: its OpenAI and Anthropic SDK calls are counted, kept as transcripts and held to the dollar budgets.',
  );

export type ModelGatewaySettings = z.output<typeof modelGatewaySchema>;

/**
 * The prices of a model: the one price list, or the longest model name the model starts with
 * (`gpt-4o-mini` prices `gpt-4o-mini-2024-07-18`, and wins over `gpt-4o`); undefined when none fits.
 */
export function pricingOf(settings: Pick<ModelGatewaySettings, 'pricing'>, model: string): Pricing | undefined {
  const pricing = settings.pricing;
  if (pricing === undefined) return undefined;
  if (isPricing(pricing)) return pricing;
  const names = Object.keys(pricing)
    .filter((name) => model === name || model.startsWith(`${name}-`) || model.startsWith(`${name}@`))
    .sort((a, b) => b.length - a.length);
  return names[0] === undefined ? undefined : pricing[names[0]];
}

function isPricing(value: Pricing | Record<string, Pricing>): value is Pricing {
  return typeof (value as { input?: unknown }).input === 'number';
}
