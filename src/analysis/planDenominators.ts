/**
 * Denominators from the declared plan, never from the results present. A scorer that averages the
 * games it has results for lets a game that crashed, or a repeat that never ran, drop out of the mean,
 * and the score rises for it. Here every planned episode is counted: one without a result is named, and
 * makes its game's mean and its agent's total unknown (runner/results/tableRows.ts).
 */

/** An episode the plan declared: its agent, game and index (repeat r of episode i is index r × episodes + i). */
export interface PlannedEpisode {
  readonly agent: string;
  readonly game: string;
  readonly episode: number;
}

/** The planned episodes without a result, in plan order. */
export function episodesWithoutResult(
  planned: readonly PlannedEpisode[],
  present: ReadonlyArray<{ readonly agent: string; readonly game_id: string; readonly episode: number }>,
): PlannedEpisode[] {
  const found = new Set(present.map((e) => `${e.agent}\u0000${e.game_id}\u0000${e.episode}`));
  return planned.filter((p) => !found.has(`${p.agent}\u0000${p.game}\u0000${p.episode}`));
}

/**
 * A planned episode as a reader finds it: `ls20-… r2` (repeat 2, counting from 0) in a plan of one
 * episode per repeat, `ls20-… r2 e1` with several, `ls20-… e4` in a plan of one repeat.
 */
export function episodeName(episode: PlannedEpisode, plan: { readonly episodesPerRepeat: number; readonly repeats: number }, withAgent: boolean): string {
  const repeat = plan.repeats > 1 ? ` r${Math.floor(episode.episode / plan.episodesPerRepeat)}` : '';
  const within = plan.episodesPerRepeat > 1 || plan.repeats === 1 ? ` e${episode.episode % plan.episodesPerRepeat}` : '';
  return `${withAgent ? `${episode.agent} ` : ''}${episode.game}${repeat}${within}`;
}

/** How many named before the rest is counted: a run cut short early can miss thousands. */
const NAMED_AT_MOST = 8;

/** `2 of 12 planned episodes have no result: ls20-… r2, …`: what a table says under itself. */
export function withoutResultSentence(missing: readonly string[], planned: number): string {
  const named = missing.slice(0, NAMED_AT_MOST).join(', ');
  const more = missing.length > NAMED_AT_MOST ? `, and ${missing.length - NAMED_AT_MOST} more` : '';
  return (
    `${missing.length} of ${planned} planned episode${planned === 1 ? '' : 's'} ${missing.length === 1 ? 'has' : 'have'} no result: ${named}${more}; ` +
    'their means are unknown, not means of the rest (resume the run to fill them)'
  );
}
