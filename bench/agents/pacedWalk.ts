/**
 * The llm bench's baseline: the fake model's walk played with no model, paced as the fake's replies
 * pace it (a wait of `wait_ms` before every `every`-th action, as a batch of that many actions comes
 * from one reply). The runner and the service then do the same work at the same rhythm as in the llm
 * agent's episode; woken after an idle wait, that work takes several times what it takes in a busy
 * loop, so only a baseline paced the same way leaves the agent's own time alone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { action, defineAgent, reset, z } from 'arcbench';

export default defineAgent({
  name: 'paced-walk',
  description: 'Plays a fixed walk of actions, waiting wait_ms before every every-th one.',
  params: z.strictObject({
    walk: z.array(z.number().int().min(1).max(5)).min(1).describe('Action ids played in turn, over and over.'),
    wait_ms: z.number().int().min(0).describe('Milliseconds waited before each every-th action.'),
    every: z.number().int().min(1).default(1).describe('Actions played per wait.'),
  }),
  create({ params, signal }) {
    let played = 0;
    return {
      async act(frame) {
        if (frame.state === 'GAME_OVER' || frame.available_actions.length === 0) return reset();
        if (played % params.every === 0) await sleep(params.wait_ms, undefined, { signal }).catch(() => undefined);
        const id = params.walk[played++ % params.walk.length]!;
        return action(id as 1 | 2 | 3 | 4 | 5);
      },
    };
  },
});
