/**
 * The one way to build what an agent returns. Every value is frozen, so what the runner sends is
 * exactly what it records; `checkedAction` is the runner's check of a value that came from a plugin.
 */
import { ArcbenchError } from '../errors.ts';
import { CLICK_ACTION_ID, UNDO_ACTION_ID, isCoordinate, makeAction, type GameAction, type PlainActionId } from '../protocol/index.ts';
import type { AgentAction, AgentDecision, ResetAction, StopDecision } from './contract.ts';

/** An agent broke the API contract; the message says what to return instead. */
export class AgentContractError extends ArcbenchError {
  constructor(message: string) {
    super('AGENT_CONTRACT', message);
  }
}

/** Any game action by id: ACTION1..5 and ACTION7 as they are, ACTION6 with its cell (use `click`). */
export function action(id: PlainActionId, reasoning?: unknown): GameAction {
  return makeAction(id, reasoning);
}

/** ACTION6 at display cell (x, y), origin top-left, 0..63. */
export function click(x: number, y: number, reasoning?: unknown): GameAction {
  return makeAction(CLICK_ACTION_ID, x, y, reasoning);
}

/** RESET of the current session. */
export function reset(reasoning?: unknown): ResetAction {
  return Object.freeze(reasoning === undefined ? { id: 0 as const } : { id: 0 as const, reasoning });
}

/**
 * An action rebuilt from its parts (a saved one, one with new reasoning, an answer over the protocol):
 * the one place an id becomes an action. Its id and cell must have been checked already (a schema,
 * `checkedAction`); a click without its cell is a bug of the caller.
 */
export function actionOfId(parts: { readonly id: number; readonly x?: number; readonly y?: number }, reasoning?: unknown): AgentAction {
  if (parts.id === 0) return reset(reasoning);
  if (parts.id !== CLICK_ACTION_ID) return action(parts.id as PlainActionId, reasoning);
  if (parts.x === undefined || parts.y === undefined) throw new RangeError('ACTION6 without its cell');
  return click(parts.x, parts.y, reasoning);
}

/** Ends the episode by the agent's own choice. */
export function stop(reason?: string, details?: unknown): StopDecision {
  return Object.freeze({ stop: true as const, ...(reason === undefined ? {} : { reason }), ...(details === undefined ? {} : { details }) });
}

export function isStop(decision: AgentDecision): decision is StopDecision {
  return (decision as StopDecision).stop === true;
}

/** A plugin's decision checked and rebuilt through the constructors above. */
export function checkedAction(decision: AgentDecision, label: string): AgentAction {
  const { id, reasoning } = decision as { id?: unknown; reasoning?: unknown };
  if (id === 0) return reset(reasoning);
  if (id === CLICK_ACTION_ID) {
    const { x, y } = decision as { x?: unknown; y?: unknown };
    if (!isCoordinate(x) || !isCoordinate(y)) {
      throw new AgentContractError(`agent "${label}" returned ACTION6 with x=${String(x)}, y=${String(y)}; both must be integers 0..63 (use click(x, y))`);
    }
    return click(x, y, reasoning);
  }
  if (id === 1 || id === 2 || id === 3 || id === 4 || id === 5 || id === UNDO_ACTION_ID) return action(id, reasoning);
  throw new AgentContractError(`agent "${label}" returned ${JSON.stringify(decision)}; return action(1..5|7), click(x, y), reset() or stop()`);
}
