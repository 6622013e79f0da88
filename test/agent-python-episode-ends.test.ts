/**
 * What the official harness does around its loop, kept for Python agents: cleanup() runs after the
 * episode with the attributes templates read there (self._cleanup, is_playback), and its failure is
 * reported in run.log; every model call an agent reports in its reasoning is counted, also the one
 * that chose the opening RESET arcbench answers itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

/** Reports one model call on every choose_action; `ends` says how its episode ends. */
const COUNTED = `
from agents.agent import Agent
from arcengine import GameAction, GameState


class Counted(Agent):
    MAX_ACTIONS = 5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ends = self.params.get("ends", "max_actions")
        # Out of reach for the budget agent: arcbench's max_actions (8) ends its episode.
        self.MAX_ACTIONS = 100 if self.ends == "budget" else 5
        self.calls = 0

    def is_done(self, frames, latest_frame):
        return self.ends == "is_done" and self.calls == 1

    def choose_action(self, frames, latest_frame):
        self.calls += 1
        print(f"choose_action call {self.calls}")
        action = GameAction.RESET if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER) else GameAction.ACTION1
        action.reasoning = {"usage": {"model": "m", "input_tokens": 10, "output_tokens": 1, "cost_usd": 0.001}, "call": self.calls}
        return action

    def cleanup(self, *args, **kwargs):
        # As the official LLM templates do: the flag the harness's Agent sets, read before anything else.
        if self._cleanup and not self.is_playback:
            print(f"cleanup after {self.calls} calls")
            if self.ends == "cleanup_fails":
                raise KeyError("no such recording")
        super().cleanup(*args, **kwargs)
`;

let dir: string;
let out: string;
const episodesOf = () => parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
const entry = (ends: string) => `  - { use: ./counted.py, label: ${ends.replace('_', '-')}, params: { ends: ${ends}, harness: gen1 } }`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-ends-'));
  writeFileSync(join(dir, 'counted.py'), COUNTED);
  const file = join(dir, 'ends.yaml');
  const agents = ['max_actions', 'budget', 'is_done', 'cleanup_fails'].map(entry);
  writeFileSync(
    file,
    ['name: ends', 'games: [crat, lamp]', 'agents:', ...agents, 'budgets: { max_actions: 8 }', 'recordings: false', 'concurrency: 4', ''].join('\n'),
  );
  out = join(dir, 'out');
  await runExperiment(await loadExperiment(file), { out });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Python agents at the end of an episode', () => {
  it('count every model call reported in a reasoning, the opening RESET and the last action included', () => {
    const episodes = episodesOf();
    expect(episodes).toHaveLength(8);
    const ends: Record<string, string> = { 'max-actions': 'agent_stop', 'cleanup-fails': 'agent_stop', 'is-done': 'agent_stop', budget: 'budget' };
    for (const episode of episodes) {
      const which = `${episode.agent} on ${episode.game_id}`;
      expect(episode.error, which).toBeUndefined();
      expect(episode.outcome, which).toBe(ends[episode.agent]);
      // choose_action was called for the opening RESET (answered by arcbench) and once per action sent.
      const made = episode.actions + 1;
      expect(episode.usage, which).toMatchObject({ calls: made, input_tokens: 10 * made, output_tokens: made });
    }
    const actions = (label: string) => episodesOf().find((episode) => episode.agent === label)!.actions;
    expect([actions('max-actions'), actions('is-done'), actions('budget')]).toEqual([5, 0, 8]);
  });

  it('run cleanup() after the episode with the attributes the templates read there, and report its failure in run.log', () => {
    const log = readFileSync(join(out, 'run.log'), 'utf8');
    expect(log).toContain('cleanup after 6 calls');
    expect(log).toContain('cleanup after 1 calls');
    expect(log).toMatch(
      /Counted\.cleanup\(\) failed after the episode \(its result stands\): KeyError: 'no such recording' \(at .*counted\.py:\d+ in cleanup\)/,
    );
    expect(
      episodesOf()
        .filter((episode) => episode.agent === 'cleanup-fails')
        .map((episode) => episode.outcome),
    ).toEqual(['agent_stop', 'agent_stop']);
  });
});
