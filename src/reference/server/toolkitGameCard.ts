/**
 * The toolkit's answer to `GET /api/scorecard/{card}/{game}` (docs/protocol.md §7a): not a card restricted to the
 * game but the game's plays, field by field, with no scores and no baselines. It looks the game up by
 * the id as asked, so a bare slug finds no plays (`cards: {}`).
 */
import type { RunEntry, Scorecard } from '../../protocol/index.ts';

/** One game's plays, a list per field with one item per play (run), in the order they began. */
export interface ToolkitGamePlays {
  actions: number[];
  /** Per play, the actions of each level it reached. */
  actions_by_level: number[][];
  guids: string[];
  levels_completed: number[];
  resets: number[];
  states: string[];
  total_actions: number;
  total_plays: number;
}

export interface ToolkitGameCard {
  won: number;
  played: number;
  total_actions: number;
  levels_completed: number;
  cards: Record<string, ToolkitGamePlays>;
}

/** `card` restricted to the game (the service's answer), in the toolkit's per-game shape. */
export function toolkitGameCard(card: Scorecard, requestedGameId: string): ToolkitGameCard {
  const answer: ToolkitGameCard = { won: 0, played: 0, total_actions: 0, levels_completed: 0, cards: {} };
  for (const environment of card.environments) {
    if (environment.id !== requestedGameId) continue;
    const plays = playsOf(environment.runs);
    answer.cards[environment.id] = plays;
    answer.played += 1;
    if (environment.completed) answer.won += 1;
    answer.total_actions += plays.total_actions;
    answer.levels_completed += environment.levels_completed;
  }
  return answer;
}

function playsOf(runs: readonly RunEntry[]): ToolkitGamePlays {
  return {
    actions: runs.map((run) => run.actions),
    // A play's levels reached: those completed and the one under way (none past the last level).
    actions_by_level: runs.map((run) => run.level_actions.slice(0, Math.min(run.levels_completed + 1, run.level_actions.length))),
    guids: runs.map((run) => run.guid),
    levels_completed: runs.map((run) => run.levels_completed),
    resets: runs.map((run) => run.resets),
    states: runs.map((run) => run.state),
    total_actions: runs.reduce((sum, run) => sum + run.actions, 0),
    total_plays: runs.length,
  };
}
