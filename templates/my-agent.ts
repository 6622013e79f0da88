/**
 * A starter agent, written by `arcbench init`: change it, then `npx arcbench run experiment.yaml`
 * to see how it does against the built-in `random`.
 *
 * Each step the agent sees the frame (`frame.frame`: the grids since its last action; `latestGrid`
 * is the one on screen now, a Uint8Array of 64×64 colours, cell `y * 64 + x`) and returns one decision:
 * `action(id)`, `click(x, y)`, `reset()` to play the level again, or `stop(reason)`.
 *
 * This one plays at random, but does not repeat a key that changed nothing, and clicks only where
 * something is drawn (a cell not of the background colour).
 */
import { defineAgent, z, action, click, reset, latestGrid, gridsEqual, colourCounts, dominantColour, CLICK_ACTION_ID, GRID_SIZE } from 'arcbench';
import type { GameActionId, Grid } from 'arcbench';

export default defineAgent({
  name: 'my-agent',
  description: 'Random actions, never the key that just changed nothing; clicks on drawn cells.',
  // The experiment file sets these (`params: { click_tries: 10 }`); they are checked by this schema.
  params: z.strictObject({
    click_tries: z.int().min(1).default(20).describe('Random cells looked at to find a drawn one.'),
  }),
  create({ params, rng }) {
    let lastGrid: Grid | undefined;
    let lastAction: GameActionId | undefined;

    /** A cell not of the background colour, if one of a few random cells is. */
    function drawnCell(grid: Grid): { x: number; y: number } {
      const background = dominantColour(grid, colourCounts(grid));
      for (let tries = 0; tries < params.click_tries; tries++) {
        const x = rng.int(GRID_SIZE);
        const y = rng.int(GRID_SIZE);
        if (grid[y * GRID_SIZE + x] !== background) return { x, y };
      }
      return { x: rng.int(GRID_SIZE), y: rng.int(GRID_SIZE) };
    }

    return {
      act(frame) {
        if (frame.state === 'GAME_OVER') return reset(); // a lost level: play it again
        if (frame.available_actions.length === 0) return reset();
        const grid = latestGrid(frame);
        const changedNothing = lastGrid !== undefined && gridsEqual(lastGrid, grid);
        const choices = frame.available_actions.filter((id) => !(changedNothing && id === lastAction));
        const id = rng.pick(choices.length > 0 ? choices : frame.available_actions);
        lastGrid = grid;
        lastAction = id;
        if (id !== CLICK_ACTION_ID) return action(id);
        const { x, y } = drawnCell(grid);
        return click(x, y);
      },
    };
  },
});
