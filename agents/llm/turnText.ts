/**
 * What every turn tells the model besides the frame: the game, the state, the levels, the actions it
 * may take, and what its last action did. Plain sentences, so that any model reads them.
 */
import { actionName, latestGrid, type FrameResponse, type GameDescriptor, type Grid } from 'arcbench';

/** What the model last sent, as the agent saw it sent. */
export interface SentAction {
  readonly id: number;
  readonly x?: number;
  readonly y?: number;
}

export interface TurnFacts {
  readonly game: GameDescriptor;
  readonly frame: FrameResponse;
  /** The previous answer's last grid and levels; undefined on the first turn. */
  readonly before: { grid: Grid; levelsCompleted: number } | undefined;
  readonly lastAction: SentAction | undefined;
  /** Counted actions so far in the episode. */
  readonly actions: number;
  /** Set when the agent itself sent a RESET because the game was over. */
  readonly autoReset?: boolean;
  /** How the last batch of actions went, when the model planned several: where it stopped and why. */
  readonly batchReport?: string;
}

export function describeAction(action: SentAction): string {
  return action.id === 6 ? `ACTION6 at x=${action.x}, y=${action.y}` : actionName(action.id);
}

/** Ids the model may choose this turn: the game's actions 1..7, and RESET (0), which is always allowed. */
export function choosableActions(frame: FrameResponse): number[] {
  const ids: number[] = [...new Set(frame.available_actions.filter((id) => Number.isInteger(id) && id >= 1 && id <= 7))].sort((a, b) => a - b);
  return [...ids, 0];
}

export function changedCells(a: Grid, b: Grid): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) changed++;
  return changed;
}

function lastActionResult(facts: TurnFacts): string {
  const { frame, before, lastAction } = facts;
  if (lastAction === undefined || before === undefined) return 'Last action: none yet; this is the first frame.';
  const grid = latestGrid(frame);
  const parts = [`Last action: ${describeAction(lastAction)}${facts.autoReset ? ' (sent for you: the game was over)' : ''}.`];
  if (frame.levels_completed > before.levelsCompleted) parts.push(`Level ${frame.levels_completed} completed!`);
  if (frame.state === 'GAME_OVER') parts.push('GAME OVER: the level was lost; the next action will be a RESET of this level.');
  else if (lastAction.id === 0) parts.push(frame.full_reset ? 'The game restarted from level 1.' : 'The level restarted.');
  const changed = changedCells(before.grid, grid);
  parts.push(changed === 0 ? 'Nothing changed on the grid.' : `${changed} cell${changed === 1 ? '' : 's'} changed.`);
  if (frame.frame.length > 1) parts.push(`The answer held ${frame.frame.length} frames (an animation or a level change); the last is shown.`);
  if (facts.batchReport !== undefined) parts.push(facts.batchReport);
  return parts.join(' ');
}

/** The turn's text, without the frame itself. */
export function turnText(facts: TurnFacts): string {
  const { game, frame } = facts;
  const level = Math.min(frame.levels_completed + 1, Math.max(frame.win_levels, 1));
  return [
    `Game: ${game.title} (${frame.game_id}). Level ${level} of ${frame.win_levels}; levels completed: ${frame.levels_completed}. State: ${frame.state}. Actions used: ${facts.actions}.`,
    `Available actions: ${choosableActions(frame).map(actionName).join(', ')}.`,
    lastActionResult(facts),
  ].join('\n');
}
