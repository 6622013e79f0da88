/**
 * Denominators from the declared plan, never from the results present. A scorer that averages the
 * games it has results for lets a game that crashed, or a repeat that never ran, drop out of the mean,
 * and the score rises for it. Here every planned (agent, game) is counted: one with results missing is
 * unknown, named, and makes its agent's total unknown.
 */

export interface DeclaredPlan {
  readonly games: readonly string[];
  /** Planned episodes per (agent, game), over all repeats. */
  readonly episodesPerGame: number;
}

export interface MissingResults {
  readonly agent: string;
  readonly game: string;
  readonly planned: number;
  readonly present: number;
}

/** The planned (agent, game) cells with fewer results than planned, in plan order. */
export function missingFromPlan(
  agents: readonly string[],
  plan: DeclaredPlan,
  present: ReadonlyArray<{ readonly agent: string; readonly game_id: string }>,
): MissingResults[] {
  const counts = new Map<string, number>();
  for (const e of present) counts.set(`${e.agent}\u0000${e.game_id}`, (counts.get(`${e.agent}\u0000${e.game_id}`) ?? 0) + 1);
  const missing: MissingResults[] = [];
  for (const agent of agents) {
    for (const game of plan.games) {
      const found = counts.get(`${agent}\u0000${game}`) ?? 0;
      if (found < plan.episodesPerGame) missing.push({ agent, game, planned: plan.episodesPerGame, present: found });
    }
  }
  return missing;
}

/** `explorer on crat-a280ea19: 0 of 4 planned episodes have a result`: one clause per cell. */
export function missingSentence(missing: readonly MissingResults[]): string {
  const cells = missing.map((m) => `${m.agent} on ${m.game}: ${m.present} of ${m.planned} planned episodes have a result`);
  return `unknown, not dropped from the mean (the plan declared them; resume the run to fill them): ${cells.join('; ')}`;
}

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
