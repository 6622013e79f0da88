/**
 * The keyboard directions of every game, indexed by action id: ACTION1 up, ACTION2 down, ACTION3 left,
 * ACTION4 right (index 0 unused). One table, so all games agree on what a key means.
 */
export const STEP_X: readonly number[] = [0, 0, 0, -1, 1];
export const STEP_Y: readonly number[] = [0, -1, 1, 0, 0];

/**
 * The cell one step from `cell` (row-major on a width × height map) in `direction` (action id 1..4),
 * or -1 when that step leaves the map or the id is not a direction.
 */
export function neighbour(cell: number, direction: number, width: number, height: number): number {
  const dx = STEP_X[direction];
  const dy = STEP_Y[direction]!; // read only when dx is there: the tables are the same length
  if (dx === undefined || (dx === 0 && dy === 0)) return -1;
  const x = (cell % width) + dx;
  const y = Math.floor(cell / width) + dy;
  if (x < 0 || y < 0 || x >= width || y >= height) return -1;
  return y * width + x;
}
