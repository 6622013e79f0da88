/**
 * Agent files load as their authors wrote them (issue 31): the official harness's templates where they
 * lie in its checkout (agents/templates/ is a namespace package, and agents/__init__.py imports every
 * template's dependencies), a copy of one anywhere, and a user's agents/my_agent.py; with arcbench's
 * stand-in arcengine and Agent, the real arcengine, and the harness's own Agent. What cannot load is
 * refused with a sentence that says why and what to change.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { OFFICIAL_TEMPLATES, pythonHasRealEngineDependencies, REAL_ARCENGINE, REAL_TOOLKIT } from './support/officialCode.ts';

const TEMPLATE = join(OFFICIAL_TEMPLATES, 'random_agent.py');

/** The shape the official docs give a user's agent: agents/my_agent.py beside agents/agent.py. */
const MY_AGENT = `
from arcengine import FrameData, GameAction, GameState

from .agent import Agent


class MyAgent(Agent):
    def is_done(self, frames: list[FrameData], latest_frame: FrameData) -> bool:
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames: list[FrameData], latest_frame: FrameData) -> GameAction:
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET
        return GameAction.ACTION1
`;

const ABSOLUTE_AGENT = MY_AGENT.replace('from .agent import Agent', 'from agents.agent import Agent').replace('MyAgent', 'Absolute');

let dir: string;
const episodesOf = (out: string) => parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-loading-'));
  mkdirSync(join(dir, 'lone'));
  cpSync(TEMPLATE, join(dir, 'lone', 'random_agent.py'));
  mkdirSync(join(dir, 'agents'));
  writeFileSync(join(dir, 'agents', 'my_agent.py'), MY_AGENT);
  writeFileSync(join(dir, 'agents', 'absolute_agent.py'), ABSOLUTE_AGENT);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function experiment(name: string, agentEntries: string[], extra: string[] = []): string {
  const file = join(dir, `${name}.yaml`);
  const lines = [`name: ${name}`, 'games: [crat, lamp]', 'agents:', ...agentEntries, 'recordings: false', 'concurrency: 4', ...extra, ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Runs with PYTHONPATH set for the agent processes (the real packages), as a user's environment would. */
async function runWith(pythonPath: readonly string[], file: string, out: string): Promise<void> {
  const before = process.env.PYTHONPATH;
  if (pythonPath.length > 0) process.env.PYTHONPATH = pythonPath.join(':');
  try {
    await runExperiment(await loadExperiment(file), { out });
  } finally {
    if (before === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = before;
  }
}

const AS_WRITTEN = [
  `  - { use: ${JSON.stringify(TEMPLATE)}, label: template }`,
  '  - { use: ./lone/random_agent.py, label: lone-copy }',
  '  - { use: ./agents/my_agent.py, label: my-agent }',
  '  - { use: ./agents/absolute_agent.py, label: absolute }',
];

const REAL_ENGINE = pythonHasRealEngineDependencies();

describe.each([
  { packages: "arcbench's stand-in arcengine and Agent", pythonPath: [] as string[], harnessAgent: false },
  { packages: 'the real arcengine', pythonPath: [REAL_ARCENGINE], harnessAgent: false },
  { packages: "the real arcengine and the harness's own Agent (its arc_agi importable)", pythonPath: [REAL_ARCENGINE, REAL_TOOLKIT], harnessAgent: true },
])('agent files as written, with $packages', ({ pythonPath, harnessAgent }) => {
  it.skipIf(pythonPath.length > 0 && !REAL_ENGINE)(
    'the official template in its checkout, a lone copy of it, agents/my_agent.py (from .agent) and from agents.agent all play (skipped only when python3 cannot import numpy and pydantic)',
    async () => {
      const name = `as-written-${pythonPath.length}`;
      const out = join(dir, name);
      await runWith(pythonPath, experiment(name, AS_WRITTEN, ['budgets: { max_actions: 10 }']), out);
      const episodes = episodesOf(out);
      expect(episodes.map((episode) => episode.agent).sort()).toEqual(['absolute', 'lone-copy', 'my-agent', 'template'].flatMap((label) => [label, label]));
      for (const episode of episodes) {
        expect(episode.error, `${episode.agent} on ${episode.game_id}`).toBeUndefined();
        expect(['win', 'budget']).toContain(episode.outcome);
      }
      const log = readFileSync(join(out, 'run.log'), 'utf8');
      // The harness's own Agent logs its cleanup with the average fps; arcbench's says when it stands in.
      expect(log.includes('average fps')).toBe(harnessAgent);
      expect(log.includes("arcbench's compatible Agent stands in")).toBe(!harnessAgent);
    },
    120_000,
  );
});

describe('a file that cannot load says why and what to change', () => {
  it("a template whose dependency is not installed names it, and where to install it (its checkout's agents/__init__.py is never run)", async () => {
    const file = experiment('missing-dependency', [`  - use: ${JSON.stringify(`${join(OFFICIAL_TEMPLATES, 'llm_agents.py')}:LLM`)}`]);
    await expect(loadExperiment(file)).rejects.toThrow(
      /llm_agents\.py failed to import: ModuleNotFoundError: No module named 'openai'; install the package that provides 'openai' for the interpreter arcbench runs \(.*python3.*\), or name one that has it in the agent entry's python: \(or ARCBENCH_PYTHON\) \(at .*llm_agents\.py:7 in <module>\)/,
    );
  });
});

describe('an agent that runs its own loop in main()', () => {
  it('is refused with what to do, rather than played as its parent class', async () => {
    writeFileSync(
      join(dir, 'own_loop.py'),
      [
        'from agents.agent import Agent',
        'from arcengine import GameAction',
        '',
        'class Base(Agent):',
        '    def is_done(self, frames, latest_frame):',
        '        return False',
        '    def choose_action(self, frames, latest_frame):',
        '        return GameAction.ACTION1',
        '',
        'class OwnLoop(Base):',
        '    def main(self):',
        '        while True:',
        '            self.take_action(GameAction.ACTION2)',
        '',
      ].join('\n'),
    );
    await expect(loadExperiment(experiment('own-loop', ['  - use: ./own_loop.py:OwnLoop']))).rejects.toThrow(
      /own_loop\.py: OwnLoop overrides main\(\) \(in OwnLoop\) to run its own loop, which arcbench never calls: arcbench drives the loop itself, asking is_done and then choose_action once per step; move what main\(\) does each step into choose_action/,
    );
  });
});

describe("an agent named as a built-in (the template's class Random)", () => {
  it('takes the label random-py, beside the built-in random', async () => {
    const loaded = await loadExperiment(experiment('named-random', ['  - use: random', `  - use: ${JSON.stringify(TEMPLATE)}`]));
    expect(loaded.agents.map((agent) => agent.label)).toEqual(['random', 'random-py']);
  });
});
