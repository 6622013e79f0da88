/**
 * A run's harness card, as run.json keeps it: what produced its scores beyond the model, in facts.
 * The same model moves by tens of points when only the harness changes, so a score without its harness
 * is half a result. `run` holds what the runner decides for every agent (the service target, budgets,
 * concurrency, retries); each agent has its own facts (kind and version, and what it declares of itself:
 * model and API, state mode, compaction, batch size, frame format, tools, prompt hashes). Facts are
 * flat (`budgets.max_actions`), so two cards compare fact by fact. src/runner/harnessCard.ts makes it.
 */
import { z } from 'zod';

/** Version of the card's layout. */
export const HARNESS_CARD_FORMAT = 'arcbench.harness-card/1';

const factSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CardFact = z.infer<typeof factSchema>;

/** Facts by name; a name left out is one the agent did not declare ("not said"). */
const factsSchema = z.record(z.string(), factSchema);
export type CardFacts = z.infer<typeof factsSchema>;

export const harnessCardSchema = z.looseObject({
  format: z.literal(HARNESS_CARD_FORMAT),
  run: factsSchema,
  agents: z.array(z.looseObject({ label: z.string(), facts: factsSchema })),
});
export type HarnessCard = z.infer<typeof harnessCardSchema>;

/** What a reader is told of a run folder written before cards were kept. */
export const UNKNOWN_CARD = 'unknown: this run was written by an arcbench that kept no harness card';
