/**
 * The scaling bench's agent: waits `wait_ms` per action, as an agent waiting on a model call would,
 * then plays a random available action. Its time is spent waiting, not computing, so the number of
 * workers and not the machine's two cores decides how fast a run goes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { action, CLICK_ACTION_ID, click, defineAgent, GRID_SIZE, reset, z } from 'arcbench';

export default defineAgent({
  name: 'waiting',
  description: 'Waits wait_ms per action (a stand-in for a model call), then plays a random available action.',
  params: z.strictObject({
    wait_ms: z.number().int().min(0).default(20).describe('Milliseconds waited before each action.'),
  }),
  create({ params, rng, signal }) {
    return {
      async act(frame) {
        await sleep(params.wait_ms, undefined, { signal }).catch(() => undefined);
        if (frame.state === 'GAME_OVER' || frame.available_actions.length === 0) return reset();
        const id = rng.pick(frame.available_actions);
        return id === CLICK_ACTION_ID ? click(rng.int(GRID_SIZE), rng.int(GRID_SIZE)) : action(id);
      },
    };
  },
});
