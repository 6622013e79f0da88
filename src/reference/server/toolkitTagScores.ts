/**
 * `tags_scores` as the official toolkit's server computes them (docs/protocol.md §7a; its scorecard.py), from
 * the card's run entries, which already are its own, level for level. What differs from §5's tags_scores:
 * - the tags are the game's metadata tags, each as often as written (a tag written twice pools twice);
 * - a game's best run (the first with the most levels completed) adds only the levels it was scored on
 *   against baselines: a run past its game's baselines adds nothing, and a tag then gets no entry from it;
 * - a tag's actions are those of the levels pooled (actions after the last level with a baseline are not);
 * - a tag's cap counts the weight of the levels that scored, not of those completed;
 * - the tags come in the order first met (games in card order, tags as written), not sorted.
 */
import type { EnvironmentEntry, RunEntry, TagScore } from '../../protocol/index.ts';
import { bestRun, scoredAgainstBaselines, type WeightedLevel, weightedPoolScore } from '../scoring.ts';

/** A card's environment with the tags it is scored under (null: none). */
export interface ToolkitTaggedEnvironment {
  readonly tags: readonly string[] | null;
  readonly environment: EnvironmentEntry;
}

interface TagPool {
  readonly levels: WeightedLevel[];
  levelsCompleted: number;
  actions: number;
  readonly games: Set<string>;
}

/** The card's tags_scores as the toolkit words them, one per tag in the order first met. */
export function toolkitTagsScores(environments: readonly ToolkitTaggedEnvironment[]): TagScore[] {
  const pools = new Map<string, TagPool>();
  for (const { tags, environment } of environments) {
    const run = bestRun(environment.runs);
    if (run === undefined || !scoredAgainstBaselines(run)) continue;
    addRun(pools, tags ?? [], environment.id, run);
  }
  return [...pools.entries()].map(([tag, pool]) => ({
    id: tag,
    score: weightedPoolScore(pool.levels),
    levels_completed: pool.levelsCompleted,
    actions: pool.actions,
    number_of_levels: pool.levels.length,
    number_of_environments: pool.games.size,
  }));
}

function poolOf(pools: Map<string, TagPool>, tag: string): TagPool {
  let pool = pools.get(tag);
  if (pool === undefined) {
    pool = { levels: [], levelsCompleted: 0, actions: 0, games: new Set() };
    pools.set(tag, pool);
  }
  return pool;
}

/**
 * Every level the run was scored on (a tag's entry is made by its first level, so a run without levels makes none), with its in-game weight (level i, 1-based, weighs i), into each of
 * its tags: level by level, each level to every tag, as the toolkit does (a tag written twice gets
 * level 1 twice, then level 2: the order its sums take, to the last bit).
 */
function addRun(pools: Map<string, TagPool>, tags: readonly string[], gameId: string, run: RunEntry): void {
  for (const [i, score] of run.level_scores.entries()) {
    for (const tag of tags) {
      const pool = poolOf(pools, tag);
      // The toolkit caps a pool by the weight of the levels that scored above 0.
      pool.levels.push({ weight: i + 1, score, completed: score > 0 });
      if (i < run.levels_completed) pool.levelsCompleted += 1;
      pool.actions += run.level_actions[i] ?? 0;
      pool.games.add(gameId);
    }
  }
}
