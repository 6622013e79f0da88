/**
 * A worker's card as the coordinator learns of it: written to the run's `cards` hash by the worker
 * when it opens the card and again when it closes it, so run.json lists every card of every worker,
 * also those of a worker that died before it could close them.
 */
import { z } from 'zod';
import type { Scorecard } from '../../protocol/index.ts';

const scorecardObject = z.custom<Scorecard>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

export const cardRecordSchema = z.object({
  card_id: z.string(),
  agent: z.string(),
  worker: z.string(),
  /** Where the worker played: `in-process`, or the service URL. */
  target: z.string(),
  opened_at: z.string(),
  state: z.enum(['open', 'closed', 'close_failed']),
  closed_at: z.string().nullable(),
  scorecard: scorecardObject.nullable(),
  close_error: z.string().nullable(),
  affinity: z.array(z.string()),
});
export type CardRecord = z.infer<typeof cardRecordSchema>;

/** The hash's values; an entry that does not parse is skipped (a newer worker's), never fatal. */
export function parseCardRecords(values: Record<string, string>): CardRecord[] {
  const cards: CardRecord[] = [];
  for (const text of Object.values(values)) {
    try {
      const parsed = cardRecordSchema.safeParse(JSON.parse(text));
      if (parsed.success) cards.push(parsed.data);
    } catch {
      // not JSON: skipped, as above
    }
  }
  return cards.sort((a, b) => (a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : 0));
}
