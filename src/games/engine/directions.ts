/**
 * The keyboard directions of every game, indexed by action id: ACTION1 up, ACTION2 down, ACTION3 left,
 * ACTION4 right (index 0 unused). One table, so all games agree on what a key means.
 */
export const STEP_X: readonly number[] = [0, 0, 0, -1, 1];
export const STEP_Y: readonly number[] = [0, -1, 1, 0, 0];
