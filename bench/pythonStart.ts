/**
 * A new episode's Python agent ready: from the episode's start to the agent's first answer, forked
 * from its fork server (docs/agent-protocol.md §8) against a process started for it (python3, the
 * layer, the module's imports, then hello and start), as processAgent.ts does either. Two modules: the
 * bench's trivial agent (imports nothing heavy) and one importing the real arcengine from
 * ../shared/official (numpy and pydantic), both measured in one run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentProcess } from '../src/agent/process/agentProcess.ts';
import { ForkServers } from '../src/agent/process/forkServer.ts';
import { processAgentCommand } from '../src/agent/process/processAgentSource.ts';
import { endLine, helloLine, startLine } from '../src/agent/process/protocolMessages.ts';
import type { FrameResponse } from '../src/protocol/index.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { median } from './measure.ts';

const AGENTS = fileURLToPath(new URL('agents/python/', import.meta.url));
const STARTS = 9;
const FORKED_GOAL_MS = 20;

const FRAME = {
  game_id: 'bench-0',
  guid: 'bench-guid',
  frame: [new Uint8Array(64 * 64)],
  state: 'NOT_FINISHED',
  levels_completed: 0,
  win_levels: 1,
  available_actions: [1, 2, 3, 4],
  full_reset: true,
  action_input: { id: 0 },
} as unknown as FrameResponse;

const START = startLine(
  { game: { game_id: 'bench-0', title: 'bench', tags: [] }, seed: 1, episode: 0, label: 'bench', card_id: '', params: {}, budgets: { max_actions: 10 } },
  FRAME,
);
const END = endLine({ outcome: 'agent_stop', actions: 1, levelsCompleted: 0 });

/** The real arcengine's folder: the main checkout's ../shared/official (a worktree finds the same). */
function realArcengine(): string | undefined {
  const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: AGENTS, encoding: 'utf8' }).trim();
  const folder = join(dirname(common), '..', 'shared', 'official', 'arcengine-0.9.3');
  return existsSync(folder) ? folder : undefined;
}

function commandOf(file: string, env: Record<string, string>) {
  const { command } = processAgentCommand(join(AGENTS, file), AGENTS)!;
  return { ...command, env: { ...command.env, ...env } };
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Milliseconds from start to first answer, each episode a process of its own, median. */
async function freshMilliseconds(file: string, env: Record<string, string>): Promise<number> {
  const command = commandOf(file, { ...env, ARCBENCH_FORK: '0' });
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    let child: AgentProcess | undefined;
    times.push(
      await elapsed(async () => {
        child = new AgentProcess(command, () => undefined);
        await child.request(helloLine());
        await child.request(START);
      }),
    );
    await child!.close(END, 1000);
  }
  return median(times);
}

/** The same, forked from one server that imported the module once (its start not counted), median. */
async function forkedMilliseconds(file: string, env: Record<string, string>): Promise<number> {
  const command = commandOf(file, { ...env, ARCBENCH_FORK: '1' });
  const servers = new ForkServers();
  const warn = (sentence: string) => {
    throw new Error(`bench python-start: ${sentence}`);
  };
  const times: number[] = [];
  try {
    for (let i = 0; i <= STARTS; i++) {
      let child: AgentProcess | undefined;
      const ms = await elapsed(async () => {
        child = await servers.child(command, () => undefined, warn);
        if (child === undefined) throw new Error('bench python-start: the fork server did not fork');
        await child.request(START);
      });
      if (i > 0) times.push(ms); // the first waits for the server's own start and import
      await child!.close(END, 1000);
    }
  } finally {
    await servers.close();
  }
  return median(times);
}

const suite: BenchSuite = {
  name: 'python-start',
  async run(): Promise<BenchFigure[]> {
    const figures: BenchFigure[] = [];
    const engine = realArcengine();
    const modules: [string, string, Record<string, string> | undefined][] = [
      ['trivial_agent.py', 'a module importing nothing heavy', {}],
      ['real_engine_agent.py', 'a module importing the real arcengine 0.9.3 (numpy, pydantic)', engine === undefined ? undefined : { PYTHONPATH: engine }],
    ];
    for (const [file, what, env] of modules) {
      if (env === undefined) continue; // no ../shared/official beside the checkout
      const fresh = await freshMilliseconds(file, env);
      const forked = await forkedMilliseconds(file, env);
      figures.push(
        { figure: `episode start to the agent's first answer, a process started for it: ${what}, median`, value: fresh, unit: 'ms' },
        {
          figure: `the same, forked from its fork server: ${what}, median`,
          value: forked,
          unit: 'ms',
          target: { op: '<=', value: FORKED_GOAL_MS },
        },
      );
    }
    return figures;
  },
};

export default suite;
