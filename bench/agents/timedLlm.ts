/**
 * The llm bench's agent: the built-in `llm` agent, each act() timed. The durations go to a list on
 * globalThis because the runner loads plugins apart from the bench's own modules; bench/llm.ts reads
 * them and takes away the fake server's own time, which leaves the agent's.
 */
import { defineAgent } from 'arcbench';
import llm from '../../agents/llm.ts';

export const ACT_TIMES_KEY = 'arcbenchLlmBenchActMs';

export default defineAgent({
  name: 'timed-llm',
  description: 'The llm agent, its time per decision recorded for the bench.',
  params: llm.params,
  async create(context) {
    const agent = await llm.create(context);
    const store = globalThis as unknown as Record<string, number[] | undefined>;
    store[ACT_TIMES_KEY] ??= [];
    const times = store[ACT_TIMES_KEY];
    return {
      async act(frame, step) {
        const started = performance.now();
        try {
          return await agent.act(frame, step);
        } finally {
          times.push(performance.now() - started);
        }
      },
    };
  },
});
