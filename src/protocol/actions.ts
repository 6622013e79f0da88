/** Action ids and their wire names (docs/protocol.md §2–§3). 0 is RESET. */
export const ACTION_NAMES = ['RESET', 'ACTION1', 'ACTION2', 'ACTION3', 'ACTION4', 'ACTION5', 'ACTION6', 'ACTION7'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** Ids of the game actions an agent can take (RESET excluded). */
export type GameActionId = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const GAME_ACTION_IDS: readonly GameActionId[] = [1, 2, 3, 4, 5, 6, 7];

import { COORDINATE_MAX } from './limits.ts';

/** The coordinate action: the only one that carries x, y. (`as const`: its type stays 6 in object literals.) */
export const CLICK_ACTION_ID = 6 as const;
/** Undo, in the games that offer it. */
export const UNDO_ACTION_ID = 7 as const;
/** The game actions that carry no coordinates. */
export type PlainActionId = Exclude<GameActionId, typeof CLICK_ACTION_ID>;

/**
 * One game action, as an immutable value. `x`, `y` are display coordinates 0..63 (origin top-left)
 * and are present exactly when `id` is CLICK_ACTION_ID. `reasoning` is any JSON value, echoed by the service.
 */
export type GameAction =
  | { readonly id: PlainActionId; readonly reasoning?: unknown }
  | { readonly id: typeof CLICK_ACTION_ID; readonly x: number; readonly y: number; readonly reasoning?: unknown };

/** A display coordinate of ACTION6: an integer 0..63, origin top-left. The one check of it. */
export function isCoordinate(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= COORDINATE_MAX;
}

/** The grid an agent looks at: the last of the answer's grids (the earlier ones are an animation). */
export function latestGrid<G>(frame: { readonly frame: readonly G[] }): G {
  return frame.frame[frame.frame.length - 1] as G;
}

export function actionName(id: number): ActionName {
  const name = ACTION_NAMES[id];
  if (name === undefined) throw new RangeError(`no action with id ${id}; ids run from 0 (RESET) to 7`);
  return name;
}

export function actionIdOf(name: string): number | undefined {
  const id = (ACTION_NAMES as readonly string[]).indexOf(name);
  return id < 0 ? undefined : id;
}

/**
 * The plain actions (no click, no reasoning), built once: they are frozen, so one value per id serves
 * every agent and every step instead of a new frozen object per action.
 */
const PLAIN_ACTIONS: readonly (GameAction | undefined)[] = [
  undefined,
  ...([1, 2, 3, 4, 5, 6, 7] as const).map((id) => (id === CLICK_ACTION_ID ? undefined : Object.freeze({ id }))),
];

/** Builds an immutable action value. */
export function makeAction(id: PlainActionId, reasoning?: unknown): GameAction;
export function makeAction(id: typeof CLICK_ACTION_ID, x: number, y: number, reasoning?: unknown): GameAction;
export function makeAction(id: GameActionId, a?: unknown, b?: unknown, c?: unknown): GameAction {
  if (id === CLICK_ACTION_ID) {
    const action = c === undefined ? { id, x: a as number, y: b as number } : { id, x: a as number, y: b as number, reasoning: c };
    return Object.freeze(action) as GameAction;
  }
  if (a === undefined) return PLAIN_ACTIONS[id]!;
  return Object.freeze({ id, reasoning: a }) as GameAction;
}
