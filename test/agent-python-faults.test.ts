/**
 * Faults of Python agents, each in a real python3 child: an exception ends its episode with the user's
 * file and line, a module that cannot load is a config error before anything plays, a process that
 * exits, crashes, writes garbage or floods ends its episode with what happened while the run goes on,
 * deadlines and Ctrl-C reach the agent, no agent process (nor what it started) outlives a run, and an
 * installed arcengine is preferred to the layer.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { processesMentioning } from './support/pythonAgents.ts';

/** One agent that misbehaves as its `fault` param says, on its third decision (after the RESET). */
const FAULTY = `
import os, signal, subprocess, sys, time
from agents.agent import Agent
from arcengine import GameAction, GameState


def divide(a, b):
    return a / b


class Faulty(Agent):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fault = self.params.get("fault", "none")
        if self.fault == "constructor":
            divide(1, 0)

    def is_done(self, frames, latest_frame):
        if self.fault == "is_done" and self.action_counter == 2:
            raise RuntimeError("is_done gave up")
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames, latest_frame):
        if self.action_counter == 2:
            self.misbehave()
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET
        if self.fault == "big_reasoning" and self.action_counter == 2:
            GameAction.ACTION1.reasoning = "x" * 20000
        return GameAction.ACTION1

    def misbehave(self):
        fault = self.fault
        if fault == "choose_action":
            divide(2, 0)
        elif fault == "exit":
            os._exit(3)
        elif fault == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif fault == "garbage":
            os.write(3, b"this is not json\\n")
            time.sleep(30)
        elif fault == "flood":
            chunk = "z" * 65536 + "\\n"
            for _ in range(200):
                sys.stderr.write(chunk)
            time.sleep(30)
        elif fault == "sleep":
            subprocess.Popen(["sleep", "300"])
            open(self.params["marker"], "w").close()
            time.sleep(300)
`;

let dir: string;
const readReport = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
const episodesOf = (out: string) => parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
const agentProcesses = () => processesMentioning(dir).filter((line) => line.includes('arcbench_host') || /\bsleep 300\b/.test(line));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-python-faults-'));
  writeFileSync(join(dir, 'faulty.py'), FAULTY);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function experiment(name: string, agentEntries: string[], extra: string[] = []): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, 'games: [crat, lamp]', 'agents:', ...agentEntries, 'recordings: false', 'concurrency: 2', ...extra, ''].join('\n'));
  return file;
}

const faulty = (fault: string, label = fault, more = '') => `  - { use: ./faulty.py, label: ${label}, params: { fault: ${fault}${more} } }`;

describe('a failing episode ends as an error, and the run goes on', () => {
  let out: string;
  beforeAll(async () => {
    const faults = ['choose_action', 'is_done', 'constructor', 'exit', 'crash', 'garbage', 'flood', 'big_reasoning'];
    // The first harness's loop sends a string reasoning as it is, so its size is the one asserted below.
    const entries = faults.map((fault) => (fault === 'big_reasoning' ? faulty(fault, fault, ', harness: gen1') : faulty(fault)));
    const file = experiment('faults', [...entries, faulty('none', 'healthy')], ['budgets: { max_actions: 6 }']);
    out = join(dir, 'faults');
    await runExperiment(await loadExperiment(file), { out });
  }, 120_000);

  const errorOf = (label: string) => {
    const episodes = episodesOf(out).filter((episode) => episode.agent === label);
    expect(episodes).toHaveLength(2);
    for (const episode of episodes) expect(episode.outcome).toBe('error');
    return episodes[0]!.error!;
  };

  it("an exception in choose_action, is_done or the constructor carries the traceback's last frames, file:line", () => {
    const file = join(dir, 'faulty.py');
    expect(errorOf('choose_action').message).toMatch(
      new RegExp(
        `^ZeroDivisionError: division by zero \\(at .*faulty\\.py:\\d+ in choose_action → .*faulty\\.py:\\d+ in misbehave → ${escapedForRegExp(file)}:8 in divide\\)$`,
      ),
    );
    expect(errorOf('choose_action').stack).toContain('Traceback (most recent call last)');
    expect(errorOf('is_done').message).toMatch(/^RuntimeError: is_done gave up \(at .*faulty\.py:\d+ in is_done\)$/);
    expect(errorOf('constructor').message).toMatch(/^ZeroDivisionError: division by zero \(at .*faulty\.py:\d+ in __init__ → .*faulty\.py:8 in divide\)$/);
  });

  it('a process that exits, crashes, writes garbage or floods its output ends its episode saying so', () => {
    expect(errorOf('exit').message).toMatch(/^agent process \.\/faulty\.py exited with code 3/);
    expect(errorOf('crash').message).toMatch(/^agent process \.\/faulty\.py was killed by SIGSEGV/);
    expect(errorOf('garbage').message).toMatch(
      /^agent process \.\/faulty\.py wrote something that is not a protocol answer on its answer channel: "this is not json"/,
    );
    expect(errorOf('flood').message).toMatch(/^agent process \.\/faulty\.py flooded its output \(more than 8 MiB/);
  });

  it("a reasoning over the service's 16 KiB is refused by the service, as any agent's, and named", () => {
    expect(errorOf('big_reasoning').message).toMatch(/reasoning.*20002 bytes serialized; the limit is 16384/);
  });

  it('plays the healthy agent to the end, keeps stderr in run.log bounded, and leaves no process behind', () => {
    for (const episode of episodesOf(out).filter((e) => e.agent === 'healthy')) expect(episode).toMatchObject({ outcome: 'budget', actions: 6 });
    expect(readReport(out).totals).toMatchObject({ planned_episodes: 18, episodes: 18 });
    const log = readFileSync(join(out, 'run.log'), 'utf8');
    expect(log).toMatch(/more bytes of this agent's output were left out of run.log/);
    expect(log.length).toBeLessThan(1_000_000);
    expect(agentProcesses()).toEqual([]);
  });
});

describe('a module that cannot load is a config error before anything plays', () => {
  it.each([
    ['a syntax error', 'def choose_action(self:\n', /broken\.py failed to import: SyntaxError: .* \(at .*broken\.py:3 in <module>\)/],
    [
      'an import error',
      'import numpy_that_is_not_there\n',
      /broken\.py failed to import: ModuleNotFoundError: No module named 'numpy_that_is_not_there'; install the package that provides 'numpy_that_is_not_there' .* \(at .*broken\.py:3 in <module>\)/,
    ],
    ['no Agent subclass', 'class NotAnAgent: pass\n', /broken\.py must define one Agent subclass, or name one as broken\.py:ClassName; it defines none/],
  ])('%s: validate names the file and line', async (_what, body, expected) => {
    writeFileSync(join(dir, 'broken.py'), `from agents.agent import Agent\n\n${body}`);
    const file = experiment('broken', ['  - use: ./broken.py']);
    await expect(loadExperiment(file)).rejects.toThrow(expected);
    const validated = await runArcbench(['validate', file], dir);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toMatch(/agents\[0\]\.use: /);
    expect(validated.stderr).toMatch(expected);
  });

  it('picks a class by name, and says which classes there are when the name is wrong', async () => {
    const file = experiment('named', ['  - use: ./faulty.py:Nope']);
    await expect(loadExperiment(file)).rejects.toThrow(/faulty\.py has no Agent subclass named Nope; it defines Faulty/);
    const named = await loadExperiment(experiment('named', ['  - use: ./faulty.py:Faulty']));
    expect(named.agents[0]!.label).toBe('faulty');
  });
});

describe('deadlines and Ctrl-C reach Python agents', () => {
  it('episode_seconds: a sleeping agent is stopped, its process group killed, and the episode ends as time', async () => {
    const marker = join(dir, 'episode-seconds.marker');
    const file = experiment(
      'deadline',
      [`  - { use: ./faulty.py, params: { fault: sleep, marker: ${JSON.stringify(marker)} } }`],
      ['budgets: { episode_seconds: 2 }'],
    );
    const out = join(dir, 'deadline');
    const started = Date.now();
    await runExperiment(await loadExperiment(file), { out });
    expect(Date.now() - started).toBeLessThan(20_000);
    for (const episode of episodesOf(out)) expect(episode.outcome).toBe('time');
    expect(agentProcesses()).toEqual([]);
  }, 60_000);

  it('run_seconds: the run ends on time with the agent stopped', async () => {
    const marker = join(dir, 'run-seconds.marker');
    const file = experiment(
      'runtime',
      [`  - { use: ./faulty.py, params: { fault: sleep, marker: ${JSON.stringify(marker)} } }`],
      ['budgets: { run_seconds: 2 }'],
    );
    const out = join(dir, 'runtime');
    await runExperiment(await loadExperiment(file), { out });
    for (const episode of episodesOf(out)) expect(episode.outcome).toBe('time');
    expect(agentProcesses()).toEqual([]);
  }, 60_000);

  it('Ctrl-C ends a run within 2 seconds, its cards closed, no agent process left', async () => {
    const marker = join(dir, 'interrupt.marker');
    const file = experiment('interrupt', [`  - { use: ./faulty.py, params: { fault: sleep, marker: ${JSON.stringify(marker)} } }`]);
    const out = join(dir, 'interrupt-out');
    const run = startArcbench(['run', file, '--out', out], dir);
    await waitUntil(() => existsSync(marker), 'the agent to be asleep in choose_action', 60_000);
    const interrupted = Date.now();
    run.child.kill('SIGINT');
    await run.exited;
    expect(Date.now() - interrupted).toBeLessThan(2000);
    const report = readReport(out);
    expect(report.status).toBe('interrupted');
    expect(report.cards.map((card) => card.state)).toEqual(['closed']);
    await waitUntil(() => agentProcesses().length === 0, 'no agent process left', 2000);
  }, 90_000);

  it('kill -9 of arcbench: the agent sees arcbench gone and exits, with what it started', async () => {
    const marker = join(dir, 'killed.marker');
    const file = experiment('killed', [`  - { use: ./faulty.py, params: { fault: sleep, marker: ${JSON.stringify(marker)} } }`]);
    const run = startArcbench(['run', file, '--out', join(dir, 'killed-out')], dir);
    await waitUntil(() => existsSync(marker), 'the agent to be asleep in choose_action', 60_000);
    expect(agentProcesses().length).toBeGreaterThan(0);
    run.child.kill('SIGKILL');
    await run.exited;
    // The agent exits at once, and takes its process group (the `sleep` it started) with it.
    await waitUntil(() => agentProcesses().length === 0, 'the agent process and what it started to exit', 5000);
  }, 90_000);
});

function escapedForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the interpreter', () => {
  it("is the entry's python:, else ARCBENCH_PYTHON, and one that cannot start is named in a config error", async () => {
    const chosen = await loadExperiment(experiment('interpreter', ['  - { use: ./faulty.py, python: /usr/bin/python3 }']));
    expect(chosen.agents[0]!.label).toBe('faulty');
    await expect(loadExperiment(experiment('no-interpreter', ['  - { use: ./faulty.py, python: ./venv/bin/python }']))).rejects.toThrow(
      /agents\[0\]\.use: agent "\.\/faulty\.py" failed to load: agent process \.\/faulty\.py could not be started: spawn .*venv\/bin\/python ENOENT/,
    );
    await expect(loadExperiment(experiment('env-interpreter', ['  - use: ./faulty.py']), { env: { ARCBENCH_PYTHON: 'python2.0-missing' } })).rejects.toThrow(
      /could not be started: spawn python2\.0-missing ENOENT; install python3 \(3\.10 or newer\), or name an interpreter in the agent entry's python: or in ARCBENCH_PYTHON/,
    );
  });
});

describe('installed packages', () => {
  it('an installed arcengine is used rather than the layer', async () => {
    // Standing in for the real package (not installable here): a module named arcengine on PYTHONPATH.
    const site = join(dir, 'site');
    mkdirSync(join(site, 'arcengine'), { recursive: true });
    writeFileSync(
      join(site, 'arcengine', '__init__.py'),
      [
        'import importlib.util, os',
        `spec = importlib.util.spec_from_file_location("layer_arcengine", ${JSON.stringify(join(import.meta.dirname, '..', 'python', 'compat', 'arcengine', '__init__.py'))})`,
        'layer = importlib.util.module_from_spec(spec)',
        'spec.loader.exec_module(layer)',
        'ActionInput, FrameData, GameAction, GameState = layer.ActionInput, layer.FrameData, layer.GameAction, layer.GameState',
        'INSTALLED = True',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'which.py'),
      [
        'import arcengine',
        'from agents.agent import Agent',
        'from arcengine import GameAction',
        'class Which(Agent):',
        '    def is_done(self, frames, latest_frame):',
        '        return self.action_counter > 1',
        '    def choose_action(self, frames, latest_frame):',
        '        print("arcengine from", arcengine.__file__, getattr(arcengine, "INSTALLED", False))',
        '        return GameAction.RESET',
        '',
      ].join('\n'),
    );
    const file = experiment('installed', ['  - use: ./which.py']);
    const out = join(dir, 'installed');
    const before = process.env.PYTHONPATH;
    process.env.PYTHONPATH = site;
    try {
      await runExperiment(await loadExperiment(file), { out });
    } finally {
      if (before === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = before;
    }
    expect(readFileSync(join(out, 'run.log'), 'utf8')).toContain(`arcengine from ${join(site, 'arcengine', '__init__.py')} True`);
  }, 60_000);
});

describe('agents inside a package', () => {
  it('load under their package name, so relative imports resolve (as in the official agents/templates/)', async () => {
    const team = join(dir, 'team');
    mkdirSync(join(team, 'bots'), { recursive: true });
    writeFileSync(join(team, '__init__.py'), '');
    writeFileSync(join(team, 'bots', '__init__.py'), '');
    writeFileSync(
      join(team, 'base.py'),
      'from agents.agent import Agent\nfrom agents.structs import GameState\n\nclass Base(Agent):\n    def is_done(self, frames, latest_frame):\n        return latest_frame.state is GameState.WIN or self.action_counter > 3\n',
    );
    writeFileSync(
      join(team, 'bots', 'helpers.py'),
      'from arcengine import GameAction\n\ndef first(frame):\n    return GameAction.from_id(frame.available_actions[0])\n',
    );
    writeFileSync(
      join(team, 'bots', 'walker.py'),
      'from ..base import Base\nfrom .helpers import first\nfrom agents.structs import GameAction, GameState\n\nclass Walker(Base):\n    def choose_action(self, frames, latest_frame):\n        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):\n            return GameAction.RESET\n        return first(latest_frame)\n',
    );
    // Walker resets on the NOT_PLAYED frame, which only the first harness's loop shows first.
    const file = experiment('package', ['  - { use: ./team/bots/walker.py, params: { harness: gen1 } }']);
    const out = join(dir, 'package');
    await runExperiment(await loadExperiment(file), { out });
    for (const episode of episodesOf(out)) expect(episode).toMatchObject({ agent: 'walker', outcome: 'agent_stop', actions: 3 });
  }, 60_000);
});
