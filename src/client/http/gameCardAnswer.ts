/**
 * `GET /api/scorecard/{card}/{game}` is answered two ways (docs/protocol.md §7a): with the card restricted to the
 * game (the hosted service, arcbench), or with the game's plays (the official toolkit's server: no scores,
 * no baselines). Both are read as a ScorecardAnswer, the plays as the game's run entries with what they
 * carry. The plays are the whole of the toolkit's answer, so nothing missing from them is warned about.
 */
import { z } from 'zod';
import type { RunEntryAnswer, ScorecardAnswer, ToolkitGameCardAnswer } from '../../protocol/index.ts';
import { scorecardAnswerSchema, toolkitGameCardSchema } from '../../protocol/index.ts';

/**
 * A card never has `cards`, and the plays never have `environments`: each branch refuses the other's
 * mark, so plays of a wrong shape are refused rather than read as an empty card.
 */
export const gameCardAnswerSchema = z.union([
  toolkitGameCardSchema.extend({ environments: z.undefined().optional() }),
  scorecardAnswerSchema.extend({ cards: z.undefined().optional() }),
]);

export type GameCardAnswer = z.infer<typeof gameCardAnswerSchema>;

export function isPlaysAnswer(answer: GameCardAnswer): answer is ToolkitGameCardAnswer {
  return 'cards' in answer && answer.cards !== undefined && answer.environments === undefined;
}

/** The plays as a card of run entries (guid, actions, resets, levels completed: what plays carry). */
export function cardOfPlays(answer: ToolkitGameCardAnswer): ScorecardAnswer {
  return {
    environments: Object.entries(answer.cards).map(([id, plays]) => {
      const count = plays.total_plays ?? plays.guids?.length ?? 0;
      const runs: RunEntryAnswer[] = Array.from({ length: count }, (_, i) =>
        definedFields({ guid: plays.guids?.[i], actions: plays.actions?.[i], resets: plays.resets?.[i], levels_completed: plays.levels_completed?.[i] }),
      );
      return { id, runs };
    }),
  };
}

function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
