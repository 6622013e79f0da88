/**
 * Random baseline: a uniformly random available action each step; clicks land on a cell that differs
 * from the background most of the time, since clicks on empty space rarely do anything.
 */
import { defineAgent, z, action, click, reset, colourCounts, dominantColour, latestGrid, wordsOf, CLICK_ACTION_ID, GRID_SIZE, type Grid } from 'arcbench';

/**
 * Index of the n-th (0-based) cell not of `colour`. Walking to it picks exactly the cell that a list
 * of candidates would, without building that list on every click (it was most of this agent's time).
 */
function nthCellNotOf(grid: Grid, colour: number, n: number): number {
  let start = 0;
  const words = wordsOf(grid);
  if (words !== undefined) {
    // Skip four background cells at a time; finish cell by cell in the word that holds the one.
    const background = Math.imul(colour, 0x01010101) >>> 0;
    for (let k = 0; k < words.length; k++, start += 4) {
      if (words[k] === background) continue;
      let others = 0;
      for (let i = start; i < start + 4; i++) if (grid[i] !== colour) others++;
      if (n < others) break;
      n -= others;
    }
  }
  for (let i = start; i < grid.length; i++) if (grid[i] !== colour && n-- === 0) return i;
  return -1;
}

export default defineAgent({
  name: 'random',
  description: 'Uniformly random available actions; clicks biased to non-background cells.',
  params: z.strictObject({
    click_bias: z.number().min(0).max(1).default(0.9).describe('Chance that a click targets a non-background cell.'),
  }),
  create({ params, rng }) {
    return {
      act(frame) {
        if (frame.state === 'GAME_OVER') return reset();
        if (frame.available_actions.length === 0) return reset();
        const id = rng.pick(frame.available_actions);
        if (id !== CLICK_ACTION_ID) return action(id);
        const grid = latestGrid(frame);
        if (rng.next() < params.click_bias) {
          const counts = colourCounts(grid);
          const colour = dominantColour(grid, counts);
          const others = grid.length - counts[colour]!;
          if (others > 0) {
            const cell = nthCellNotOf(grid, colour, rng.int(others));
            return click(cell % GRID_SIZE, Math.floor(cell / GRID_SIZE));
          }
        }
        return click(rng.int(GRID_SIZE), rng.int(GRID_SIZE));
      },
    };
  },
});
