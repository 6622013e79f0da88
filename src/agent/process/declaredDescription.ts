/**
 * What an agent process says of itself in its hello (`describe`, docs/agent-protocol.md §3): the same
 * description a TypeScript plugin returns from `describe`, in the protocol's snake_case. It is said
 * once, before any params are sent, so it holds for every agent entry that uses the program.
 */
import { z } from 'zod';
import type { AgentDescription } from '../description.ts';

const tokens = z.number().min(0);
const dollarsPerMillion = z.number().min(0);

/** Checked with the hello: a mistake in it is a load error with its field named, not a wrong estimate. */
export const declaredDescriptionSchema = z.looseObject({
  calls_model: z.boolean().optional(),
  longest_decision_seconds: z.number().positive().optional(),
  shorten_decision_hint: z.string().min(1).optional(),
  cost_per_call: z
    .strictObject({
      fixed_tokens: tokens,
      turn_tokens: tokens,
      context_tokens: tokens,
      output_tokens: tokens,
      actions_per_call: z.int().min(1).optional(),
      cached_share: z.number().min(0).max(1).optional(),
      pricing: z
        .strictObject({
          input: dollarsPerMillion,
          output: dollarsPerMillion,
          cached_input: dollarsPerMillion.optional(),
          cache_write: dollarsPerMillion.optional(),
        })
        .optional(),
    })
    .optional(),
  /** What decides its scores beyond the model, for the run's harness card (description.ts HarnessFacts). */
  harness: z
    .strictObject({
      facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
      prompts: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

export type DeclaredDescription = z.output<typeof declaredDescriptionSchema>;

export function descriptionOfHello(declared: DeclaredDescription | undefined): AgentDescription {
  if (declared === undefined) return {};
  const { calls_model: callsModel, longest_decision_seconds: longestDecisionSeconds, shorten_decision_hint: shortenDecisionHint } = declared;
  const call = declared.cost_per_call;
  return {
    ...(callsModel === undefined ? {} : { callsModel }),
    ...(longestDecisionSeconds === undefined ? {} : { longestDecisionSeconds }),
    ...(shortenDecisionHint === undefined ? {} : { shortenDecisionHint }),
    ...(call === undefined ? {} : { costEstimate: () => callEstimateOf(call) }),
    ...(declared.harness === undefined ? {} : { harness: declared.harness }),
  };
}

/** The same on every game: a program declares its turn as it sends it, frame included. */
function callEstimateOf(call: NonNullable<DeclaredDescription['cost_per_call']>) {
  const shape = {
    fixedTokens: call.fixed_tokens,
    turnTokens: call.turn_tokens,
    contextTokens: call.context_tokens,
    outputTokens: call.output_tokens,
    actionsPerCall: call.actions_per_call ?? 1,
    cachedShare: call.cached_share ?? 0,
  };
  return call.pricing === undefined ? { shape } : { shape, pricing: call.pricing };
}
