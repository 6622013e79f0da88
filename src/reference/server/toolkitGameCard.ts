/**
 * The toolkit's answer to `GET /api/scorecard/{card}/{game}` (docs/protocol.md §7a): not a card restricted to the
 * game but the whole card's totals and the game's plays, field by field, with no scores and no baselines.
 * It looks the game up by the id as asked, so a bare slug finds no plays (`cards: {}`), though the totals
 * still count the whole card.
 */
import type { GameRunCounts } from '../scorecardRecord.ts';
import type { RunCounts } from '../run.ts';

/** One game's plays (runs), a list per field with one item per play, in the order they began. */
export interface ToolkitGamePlays {
  game_id: string;
  actions: number[];
  /** Per play, `[levels completed, the play's actions then]` at each level completion. */
  actions_by_level: [number, number][][];
  guids: string[];
  levels_completed: number[];
  resets: number[];
  states: string[];
  total_actions: number;
  total_plays: number;
}

export interface ToolkitGameCard {
  /** Games of the card with a won play. */
  won: number;
  /** Games of the card with a play. */
  played: number;
  /** Actions of every play on the card. */
  total_actions: number;
  /** The most levels any play of a game completed, summed over the card's games. */
  levels_completed: number;
  cards: Record<string, ToolkitGamePlays>;
}

/** The card's runs (every game's) in the toolkit's per-game shape, the plays of `requestedGameId` only. */
export function toolkitGameCard(games: readonly GameRunCounts[], requestedGameId: string): ToolkitGameCard {
  const answer: ToolkitGameCard = { won: 0, played: 0, total_actions: 0, levels_completed: 0, cards: {} };
  for (const { gameId, runs } of games) {
    if (runs.length === 0) continue;
    answer.played += 1;
    if (runs.some((run) => run.state === 'WIN')) answer.won += 1;
    answer.total_actions += sumOf(runs.map((run) => run.actions));
    answer.levels_completed += Math.max(...runs.map((run) => run.levelsCompleted));
    if (gameId === requestedGameId) answer.cards[gameId] = playsOf(gameId, runs);
  }
  return answer;
}

function playsOf(gameId: string, runs: readonly RunCounts[]): ToolkitGamePlays {
  return {
    game_id: gameId,
    actions: runs.map((run) => run.actions),
    actions_by_level: runs.map((run) => run.completionActionCounts.map((actions, i): [number, number] => [i + 1, actions])),
    guids: runs.map((run) => run.guid),
    levels_completed: runs.map((run) => run.levelsCompleted),
    resets: runs.map((run) => run.resets),
    states: runs.map((run) => run.state),
    total_actions: sumOf(runs.map((run) => run.actions)),
    total_plays: runs.length,
  };
}

const sumOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
