/**
 * Random baseline: a uniformly random available action each step; clicks land on a cell that differs
 * from the background most of the time, since clicks on empty space rarely do anything.
 */
import { defineAgent, z, action, click, reset, GRID_SIZE, type Grid } from 'arcbench';

/** The most common colour of a grid: what the game paints as empty space. */
function backgroundColour(grid: Grid): number {
  const counts = new Uint32Array(16);
  for (let i = 0; i < grid.length; i++) counts[grid[i]]++;
  let best = 0;
  for (let c = 1; c < 16; c++) if (counts[c] > counts[best]) best = c;
  return best;
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
        const choices = frame.available_actions.filter((id) => id >= 1 && id <= 7);
        if (choices.length === 0) return reset();
        const id = rng.pick(choices) as 1 | 2 | 3 | 4 | 5 | 6 | 7;
        if (id !== 6) return action(id);
        const grid = frame.frame[frame.frame.length - 1];
        if (rng.next() < params.click_bias) {
          const background = backgroundColour(grid);
          const cells: number[] = [];
          for (let i = 0; i < grid.length; i++) if (grid[i] !== background) cells.push(i);
          if (cells.length > 0) {
            const cell = rng.pick(cells);
            return click(cell % GRID_SIZE, Math.floor(cell / GRID_SIZE));
          }
        }
        return click(rng.int(GRID_SIZE), rng.int(GRID_SIZE));
      },
    };
  },
});
