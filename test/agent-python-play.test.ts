/**
 * Agents written for the official harness (test/fixtures/python: random, one that clicks, one with
 * reasoning and model usage, one that prints and logs heavily) play every game through the agent
 * protocol, in a real python3, in-process and against a real `arcbench serve --backends 3`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameCatalog } from '../src/games/catalog.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type ArcbenchProcess, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { copyPythonFixtures, processesMentioning, recordedActions } from './support/pythonAgents.ts';

const AGENTS = ['random_agent.py', 'click_agent.py', 'reasoning_agent.py', 'chatty_agent.py'];
const LABELS = ['random', 'clicker', 'thinker', 'chatty'];

let dir: string;
let serve: ArcbenchProcess | undefined;

function experimentYaml(target: string, seed = 5): string {
  return [
    'name: python-agents',
    `target: ${target}`,
    'games: all',
    'agents:',
    // These agents' counts, reasonings and opening RESET are the first harness's loop's, asked for by name.
    ...AGENTS.map(
      (file, i) => `  - { use: ./${file}, label: ${LABELS[i]}, params: { harness: gen1${file === 'reasoning_agent.py' ? ', model: gpt-test' : ''} } }`,
    ),
    `seed: ${seed}`,
    'concurrency: 4',
    'recordings: jsonl',
    '',
  ].join('\n');
}

async function play(name: string, target: string, seed?: number): Promise<{ out: string; report: RunReport }> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, experimentYaml(target, seed));
  const out = join(dir, name);
  const result = await runExperiment(await loadExperiment(file), { out });
  return { out, report: result.report };
}

const episodesOf = (out: string) => parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));

/** arcbench serve prints its URL alone on the first line of its stdout. */
const SERVE_URL = /^(http:\/\/\S+)\n/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-play-'));
  copyPythonFixtures(dir);
  serve = startArcbench(['serve', '--port', '0', '--backends', '3', '--log-level', 'silent'], dir);
  await waitUntil(() => SERVE_URL.test(serve!.output().stdout), 'arcbench serve to listen');
}, 60_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['in-process', 'http'] as const)('official-shaped Python agents, %s', (over) => {
  let out: string;
  let report: RunReport;

  beforeAll(async () => {
    const url = SERVE_URL.exec(serve!.output().stdout)![1]!;
    const target = over === 'in-process' ? 'reference' : `{ url: "${url}", api_key: python-test-key }`;
    ({ out, report } = await play(over, target));
  }, 240_000);

  it('play every game to a clean end: no errors, the run complete, no agent process left', () => {
    const games = gameCatalog().map((game) => game.info.id);
    const episodes = episodesOf(out);
    expect(report.status).toBe('completed');
    for (const label of LABELS) {
      const mine = episodes.filter((episode) => episode.agent === label);
      expect(mine.map((episode) => episode.game_id).sort()).toEqual([...games].sort());
      for (const episode of mine) {
        expect(episode.error, `${label} on ${episode.game_id}`).toBeUndefined();
        expect(['win', 'agent_stop', 'budget']).toContain(episode.outcome);
      }
    }
    expect(processesMentioning(dir).filter((line) => line.includes('arcbench_host'))).toEqual([]);
  });

  it("keeps the official MAX_ACTIONS and arcbench's budget exactly: 80 either way", () => {
    for (const episode of episodesOf(out).filter((e) => e.agent === 'random' && e.outcome !== 'win')) {
      expect(episode.actions).toBe(80);
    }
    // Thinker's MAX_ACTIONS is 12: the official loop ends at action_counter 13, the opening RESET included.
    for (const episode of episodesOf(out).filter((e) => e.agent === 'thinker' && e.outcome !== 'win')) {
      expect(episode).toMatchObject({ outcome: 'agent_stop', stop_reason: 'MAX_ACTIONS', actions: 12 });
    }
  });

  it("counts a reasoning's usage as the step's model usage, and never lets one step's reasoning leak into the next", async () => {
    const thinker = episodesOf(out).filter((episode) => episode.agent === 'thinker');
    for (const episode of thinker) {
      expect(episode.usage).toMatchObject({
        calls: 6,
        input_tokens: 6000,
        cached_input_tokens: 1200,
        reasoning_tokens: 300,
        output_tokens: 600,
        cost_usd: 0.06,
      });
      expect(episode.model_calls?.[0]).toMatchObject({ model: 'gpt-test', step: 0 });
      const actions = (await recordedActions(join(out, episode.recording!))).slice(1);
      actions.forEach((action, i) => {
        if (i % 2 === 0) expect(action.reasoning).toMatchObject({ model: 'gpt-test', input_tokens: 1000, rationale: { thought: `step ${i + 1}` } });
        else expect(action.reasoning).toBeUndefined();
      });
    }
    const thinkerTotals = report.agents.find((agent) => agent.label === 'thinker')!.usage;
    expect(thinkerTotals.calls).toBe(6 * thinker.length);
    expect(report.totals.usage.cost_usd).toBeCloseTo(0.06 * thinker.length, 9);
  });

  it("sends the random agent's clicks and its reasoning as the official harness would", async () => {
    const random = episodesOf(out).filter((episode) => episode.agent === 'random');
    const actions = (await Promise.all(random.map((episode) => recordedActions(join(out, episode.recording!))))).flat();
    const clicks = actions.filter((action) => action.id === 6);
    expect(clicks.length).toBeGreaterThan(0);
    for (const click of clicks) expect(click.reasoning).toEqual({ desired_action: '6', my_reason: 'RNG said so!' });
    for (const action of actions.filter((a) => a.id >= 1 && a.id !== 6)) expect(action.reasoning).toBe(`RNG told me to pick ${action.id}`);
  });

  it("keeps the chatty agent's prints and logs out of its answers and in run.log", () => {
    const log = readFileSync(join(out, 'run.log'), 'utf8');
    expect(log).toContain('frames so far');
    expect(log).toMatch(/INFO \S+ - count \d+, levels completed/);
    expect(log).toContain('stderr line yyy');
    for (const episode of episodesOf(out).filter((e) => e.agent === 'chatty')) expect(episode.stop_reason).not.toBe('a print that looks like an answer');
  });
});

describe('seeds', () => {
  it("replay: the episode's seed reaches self.seed and random, so the same seed makes the same choices", async () => {
    const first = await play('seed-a', 'reference', 21);
    const second = await play('seed-b', 'reference', 21);
    const choices = async (out: string) => {
      const episodes = episodesOf(out).filter((episode) => episode.agent === 'random' || episode.agent === 'clicker');
      episodes.sort((a, b) => `${a.agent}${a.game_id}`.localeCompare(`${b.agent}${b.game_id}`));
      return Promise.all(episodes.map(async (episode) => (await recordedActions(join(out, episode.recording!))).map((a) => [a.id, a.data?.x, a.data?.y])));
    };
    expect(await choices(second.out)).toEqual(await choices(first.out));
  }, 240_000);
});
