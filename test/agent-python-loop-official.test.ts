/**
 * Today's harness's loop, compared: one probe agent (test/fixtures/official-loop/probe_agent.py) writes
 * what it observes on every call, once played by the official ARC-AGI-3-Agents Agent.main() with its
 * arc_env from the official toolkit's Arcade pointed at a real `arcbench serve`, once played by arcbench
 * as a Python agent (in-process reference, the default loop). Both files must be the same, line for line.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type ArcbenchProcess, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { OFFICIAL_HARNESS, pythonHasRealEngineDependencies, REAL_ARCENGINE, REAL_TOOLKIT } from './support/officialCode.ts';
import { recordedActions } from './support/pythonAgents.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'official-loop');
const PROBE = join(FIXTURES, 'probe_agent.py');
const GAME = 'crat-a280ea19';
const SERVE_URL = /^(http:\/\/\S+)\n/;
// The toolkit's client and the real arcengine need numpy, pydantic and requests.
const canRunOfficial = pythonHasRealEngineDependencies();

type Observation = Record<string, unknown> & { call: string };
const observations = (file: string): Observation[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Observation);

describe.skipIf(!canRunOfficial)('a probe agent under the official Agent.main() and under arcbench (skipped: python3 lacks numpy or pydantic)', () => {
  let dir: string;
  let serve: ArcbenchProcess | undefined;
  let official: Observation[];
  let arcbench: Observation[];
  let out: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-loop-official-'));
    serve = startArcbench(['serve', '--port', '0', '--log-level', 'silent'], dir);
    await waitUntil(() => SERVE_URL.test(serve!.output().stdout), 'arcbench serve to listen');
    const url = SERVE_URL.exec(serve.output().stdout)![1]!;
    execFileSync('python3', [join(FIXTURES, 'run_official.py'), OFFICIAL_HARNESS, url, GAME, PROBE, 'Probe'], {
      env: { ...process.env, PROBE_OUT: join(dir, 'official.jsonl'), PYTHONPATH: [REAL_ARCENGINE, REAL_TOOLKIT].join(':'), PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 120_000,
    });
    official = observations(join(dir, 'official.jsonl'));

    const experiment = join(dir, 'experiment.yaml');
    const lines = [
      'name: loop',
      'target: reference',
      'games: [crat]',
      'agents:',
      `  - use: ${PROBE}`,
      'budgets: { max_actions: 200 }',
      'recordings: jsonl',
      'seed: 3',
      '',
    ];
    writeFileSync(experiment, lines.join('\n'));
    out = join(dir, 'run');
    process.env.PROBE_OUT = join(dir, 'arcbench.jsonl');
    try {
      await runExperiment(await loadExperiment(experiment), { out });
    } finally {
      delete process.env.PROBE_OUT;
    }
    arcbench = observations(join(dir, 'arcbench.jsonl'));
  }, 240_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the first call the frame after the RESET that made the environment: in play, one grid, full_reset, frames holding only the empty one', () => {
    const first = official.find((o) => o.call === 'choose_action')!;
    expect(first).toMatchObject({
      frames: 1,
      action_counter: 0,
      first_empty: true,
      latest_is_last: false,
      state: 'NOT_FINISHED',
      grids: 1,
      grid_shape: [64, 64],
    });
    expect(first).toMatchObject({ full_reset: true, guid_set: true, raw_type: 'FrameDataRaw', raw_grid_shape: [64, 64], timer_set: true });
    expect(arcbench.find((o) => o.call === 'choose_action')).toEqual(first);
  });

  it('asks is_done on the frames list, choose_action 81 times for MAX_ACTIONS 80, and cleans up once: as the official loop does, call for call', () => {
    expect(official.filter((o) => o.call === 'choose_action')).toHaveLength(81);
    expect(official.at(-1)).toEqual({ call: 'cleanup', action_counter: 81, frames: 82 });
    expect(arcbench).toEqual(official);
  });

  it('sends every action the agent chose, its first RESET too: 81 game actions, the clicks given as strings taken as numbers', async () => {
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episode).toMatchObject({ outcome: 'agent_stop', stop_reason: 'MAX_ACTIONS' });
    const actions = (await recordedActions(join(out, episode!.recording!))).slice(1);
    expect(actions).toHaveLength(81);
    expect(actions[0]!.id).toBe(0);
    expect(actions[1]).toMatchObject({ id: expect.any(Number), reasoning: { text: 'step 1' } });
  });
});
