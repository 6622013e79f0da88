/**
 * The loop a Python agent entry asks for: `params: { harness: … }` names today's harness's loop
 * (`current`, the default) or the first harness's (`gen1`); anything else is named in the episode's error.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

// Writes the state of the first latest_frame it is shown to run.log, then stops.
const FIRST_LOOK = `
from agents.agent import Agent
from arcengine import GameAction

class FirstLook(Agent):
    def is_done(self, frames, latest_frame):
        return self.action_counter > 0

    def choose_action(self, frames, latest_frame):
        print(f"first look: {self.params.get('harness', 'default')} sees {latest_frame.state.value}, {len(latest_frame.frame)} grids")
        return GameAction.RESET
`;

let dir: string;
let out: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-loop-'));
  writeFileSync(join(dir, 'first_look.py'), FIRST_LOOK);
  const entries = ['{}', '{ harness: current }', '{ harness: gen1 }', '{ harness: gen2 }'].map(
    (params, i) => `  - { use: ./first_look.py, label: look${i}, params: ${params} }`,
  );
  writeFileSync(join(dir, 'loop.yaml'), ['name: loop', 'target: reference', 'games: [crat]', 'agents:', ...entries, ''].join('\n'));
  out = join(dir, 'run');
  await runExperiment(await loadExperiment(join(dir, 'loop.yaml')), { out });
}, 120_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('params.harness', () => {
  it("plays today's harness's loop by default and by name, the first harness's with gen1", () => {
    const log = readFileSync(join(out, 'run.log'), 'utf8');
    expect(log).toContain('first look: default sees NOT_FINISHED, 1 grids');
    expect(log).toContain('first look: current sees NOT_FINISHED, 1 grids');
    expect(log).toContain('first look: gen1 sees NOT_PLAYED, 0 grids');
  });

  it('names the field and the values it takes when the value is another', () => {
    const episodes = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    const wrong = episodes.find((episode) => episode.agent === 'look3')!;
    expect(wrong.outcome).toBe('error');
    expect(wrong.error?.message).toMatch(/params\.harness is 'gen2'; write harness: current .* or harness: gen1/);
    expect(episodes.filter((episode) => episode.agent !== 'look3').map((episode) => episode.outcome)).toEqual(['agent_stop', 'agent_stop', 'agent_stop']);
  });
});
