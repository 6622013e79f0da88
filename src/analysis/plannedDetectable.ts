/**
 * The minimum detectable difference ahead of a run (`arcbench plan --from RUN`), from the spread an
 * earlier run showed. What makes two arms' game means differ when nothing differs between the arms is
 * the draw-to-draw spread of one agent on one game: the SD of episode scores within each (agent, game),
 * pooled over the earlier run's cells (weighted by their degrees of freedom). A planned game with n
 * episodes per arm (episodes × repeats) then gives a per-game difference with SD σ·√(2/n), and the MDD
 * of a comparison clustered by game follows (detectableDifference.ts). Two arms drawn independently are
 * assumed: paired seeds can only narrow it.
 */
import type { ScoredEpisode } from './episodeSample.ts';
import { detectableSentence, plannedDetectableDifference } from './detectableDifference.ts';

export interface WithinGameSpread {
  /** The pooled SD of episode scores within an (agent, game). */
  readonly sd: number;
  /** (agent, game) cells with two or more episodes: those that show a spread. */
  readonly cells: number;
  /** Episodes behind it. */
  readonly episodes: number;
}

/** Null when no (agent, game) has two episodes: one draw shows no spread. */
export function withinGameSpread(episodes: readonly Pick<ScoredEpisode, 'agent' | 'game' | 'score'>[]): WithinGameSpread | null {
  const cells = new Map<string, number[]>();
  for (const e of episodes) {
    const key = `${e.agent}\u0000${e.game}`;
    cells.set(key, [...(cells.get(key) ?? []), e.score]);
  }
  let squares = 0;
  let freedom = 0;
  let used = 0;
  let counted = 0;
  for (const scores of cells.values()) {
    if (scores.length < 2) continue;
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    squares += scores.reduce((sum, s) => sum + (s - mean) ** 2, 0);
    freedom += scores.length - 1;
    used++;
    counted += scores.length;
  }
  return used === 0 ? null : { sd: Math.sqrt(squares / freedom), cells: used, episodes: counted };
}

export interface PlannedDetectable {
  /** Null below two games. */
  readonly minimum_detectable: number | null;
  readonly sentence: string;
  readonly spread: WithinGameSpread;
}

/** The MDD of comparing two arms of a plan of `games` games, `episodes` episodes per repeat and `repeats` repeats. */
export function detectableAhead(
  spread: WithinGameSpread,
  plan: { readonly games: number; readonly episodes: number; readonly repeats: number },
): PlannedDetectable {
  const perGame = plan.episodes * plan.repeats;
  const mdd = plannedDetectableDifference(spread.sd * Math.sqrt(2 / perGame), plan.games);
  const sentence =
    mdd === null
      ? `with ${plan.games} game, no difference can be told from noise: a comparison clustered by game needs two games or more`
      : detectableSentence(mdd, plan.games, plan.repeats);
  return { minimum_detectable: mdd, sentence, spread };
}
