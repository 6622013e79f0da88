/** How the viewer names the action of a step: `RESET`, `ACTION3`, `ACTION6 at (12, 40)`. */
import { ACTION_NAMES, CLICK_ACTION_ID } from '../../protocol/actions.ts';

export function actionLabel(action: { id: number; x?: number; y?: number }): string {
  const name = ACTION_NAMES[action.id] ?? `action ${action.id}`;
  return action.id === CLICK_ACTION_ID && action.x !== undefined && action.y !== undefined ? `${name} at (${action.x}, ${action.y})` : name;
}
