/**
 * Random baseline: a uniformly random available action each step; clicks land on a cell that differs
 * from the background most of the time, since clicks on empty space rarely do anything.
 */
import { defineAgent, z, action, click, reset, colourCounts, dominantColour, latestGrid, nthCellNotOf, CLICK_ACTION_ID, GRID_SIZE } from 'arcbench';

export default defineAgent({
  name: 'random',
  description: 'Uniformly random available actions; clicks biased to non-background cells.',
  // It calls no model: nothing to estimate, and every decision is quick.
  describe: () => ({ callsModel: false }),
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
            // Uniform among the cells off the background: the n-th of them, for a random n.
            const cell = nthCellNotOf(grid, colour, rng.int(others));
            return click(cell % GRID_SIZE, Math.floor(cell / GRID_SIZE));
          }
        }
        return click(rng.int(GRID_SIZE), rng.int(GRID_SIZE));
      },
      // Its only memory is the generator: that is what a resumed run needs to go on as before.
      snapshot: () => rng.saveState(),
      restore: (state) => rng.restoreState(state as number),
    };
  },
});
