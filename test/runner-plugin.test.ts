// A user's plugin written to a folder of its own (no node_modules, no package.json) imports from
// 'arcbench', is loaded by path, gets its params validated by its own schema, and plays.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { firstOf } from './support/lists.ts';
import { tempDir } from './support/tempDir.ts';

const PLUGIN = `
import { defineAgent, z, action, stop, type FrameResponse } from 'arcbench';
import { firstAction } from './choice.ts';

export default defineAgent({
  name: 'stepper',
  params: z.strictObject({ steps: z.int().min(1) }),
  create: ({ params }) => ({
    act: (frame: FrameResponse, { step }) => (step < params.steps ? action(firstAction(frame)) : stop('walked enough', { steps: step })),
  }),
});
`;

// A helper next to the plugin: TypeScript outside any ESM package must still load as an ES module.
const HELPER = `
import type { FrameResponse } from 'arcbench';
export function firstAction(frame: FrameResponse): 1 | 2 | 3 | 4 | 5 { return (frame.available_actions.find((id) => id !== 6 && id !== 7) ?? 1) as 1; }
`;

describe('agent plugins', () => {
  it('loads a .ts plugin from a temp dir that imports from arcbench, and runs it', async () => {
    const dir = tempDir('plugin');
    writeFileSync(join(dir, 'stepper.ts'), PLUGIN);
    writeFileSync(join(dir, 'choice.ts'), HELPER);
    writeFileSync(join(dir, 'exp.yaml'), 'name: plugin\ngames: [keyboard]\nagents:\n  - use: ./stepper.ts\n    params: { steps: 3 }\nrecordings: false\n');
    const experiment = await loadExperiment(join(dir, 'exp.yaml'));
    expect(firstOf(experiment.agents, 'agent').label).toBe('stepper');

    const result = await runExperiment(experiment, { out: join(dir, 'out') });
    const episodes = parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8'));
    expect(episodes.length).toBeGreaterThan(0);
    for (const episode of episodes) {
      expect(episode).toMatchObject({ agent: 'stepper', outcome: 'agent_stop', stop_reason: 'walked enough', actions: 3 });
    }
    expect(result.report.status).toBe('completed');
  });

  it("reports a plugin's param error at its path", async () => {
    const dir = tempDir('plugin');
    writeFileSync(join(dir, 'stepper.ts'), PLUGIN);
    writeFileSync(join(dir, 'choice.ts'), HELPER);
    writeFileSync(join(dir, 'bad.yaml'), 'name: bad\nagents:\n  - use: random\n  - use: ./stepper.ts\n    params: { steps: 0 }\n');
    await expect(loadExperiment(join(dir, 'bad.yaml'))).rejects.toThrow(/^bad\.yaml: agents\[1\]\.params\.steps: /);
  });

  it('says what to export when a module is not an agent', async () => {
    const dir = tempDir('plugin');
    writeFileSync(join(dir, 'nothing.ts'), 'export default { name: "x" };\n');
    writeFileSync(join(dir, 'x.yaml'), 'name: x\nagents:\n  - use: ./nothing.ts\n');
    await expect(loadExperiment(join(dir, 'x.yaml'))).rejects.toThrow(/agents\[0\]\.use: .*must default-export defineAgent/);
  });

  it('keeps the stack of an exception thrown in act, in episodes.jsonl and run.log', async () => {
    const dir = tempDir('plugin');
    writeFileSync(
      join(dir, 'thrower.ts'),
      "import { defineAgent } from 'arcbench';\nfunction decideBadly(): never { throw new Error('no idea what to do'); }\nexport default defineAgent({ name: 'thrower', create: () => ({ act: () => decideBadly() }) });\n",
    );
    writeFileSync(join(dir, 'x.yaml'), 'name: x\ngames: [crat]\nagents: [{ use: ./thrower.ts }]\nrecordings: false\n');
    await runExperiment(await loadExperiment(join(dir, 'x.yaml')), { out: join(dir, 'out') });
    const [episode] = parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8'));
    expect(episode!.error).toMatchObject({ kind: 'agent', message: 'no idea what to do', stack: expect.stringMatching(/at decideBadly .*thrower\.ts/) });
    expect(readFileSync(join(dir, 'out', 'run.log'), 'utf8')).toMatch(/at decideBadly .*thrower\.ts/);
  });
});
