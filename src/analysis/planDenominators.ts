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
