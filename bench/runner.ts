/**
 * The in-process runner: the random agent over every catalog game, 2,000 episodes, through the same
 * YAML → runExperiment path `arcbench run` takes, against a bare loop that sends the very same agent
 * decisions straight to ReferenceService.command. Their ratio is what the runner itself costs.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { parseExperiment, type AgentDecision, type FrameResponse } from '../src/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { planEpisodes } from '../src/runner/plan.ts';
import { createRng } from '../src/agent/rng.ts';
import { actionName, type ActionName } from '../src/protocol/index.ts';
import { experimentYaml, timedRun, type BenchRunSettings } from './benchExperiment.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { cpuMicroseconds, median } from './measure.ts';
import { scratchFolder } from './scratch.ts';

const GAMES = 6;
const EPISODES = 2_000;
const SETTINGS: BenchRunSettings = {
  target: 'reference',
  episodesPerGame: Math.ceil(EPISODES / GAMES),
  maxActions: 80,
  concurrency: 4,
  recordings: false,
};
// Rounds alternate runner and bare loop, and the overhead is the median of each round's own ratio: this
// machine's speed drifts by up to 2× within a minute, and a ratio of two medians taken minutes apart
// measured the drift as much as the runner.
const ROUNDS = 7;

/**
 * The same episodes as the runner plays (same plan, same seeds, same agent), each action a direct
 * call; counted actions as the runner counts them (game actions and level resets, not full resets).
 */
async function bareLoop(settings: BenchRunSettings): Promise<{ actions: number; seconds: number; cpuSeconds: number }> {
  const dir = scratchFolder('bare-loop');
  const experiment = await parseExperiment(experimentYaml(settings), { file: join(dir, 'bench.yaml'), baseDir: dir });
  const key = 'arcbench-local';
  const service = new ReferenceService({ seed: experiment.config.seed });
  const games = service.listGames(key);
  const plan = planEpisodes(experiment, games);
  const cardId = service.openScorecard(key, { tags: ['bench'] }).card_id;
  const max = experiment.config.budgets.max_actions;
  const signal = new AbortController().signal;
  let actions = 0;
  const started = process.hrtime.bigint();
  const cpuStarted = cpuMicroseconds();
  for (const spec of plan) {
    const gameId = spec.game.game_id;
    let frame: FrameResponse = service.command(key, 'RESET', { game_id: gameId, card_id: cardId });
    const guid = frame.guid;
    const agent = await spec.agent.definition.create({
      params: spec.agent.params,
      game: spec.game,
      rng: createRng(spec.seed),
      seed: spec.seed,
      episode: spec.index,
      label: spec.agent.label,
      reportUsage: () => {},
      keepTranscript: () => {},
      signal,
      resolvePath: (path) => join(dir, path),
    });
    let counted = 0;
    let levelActions = 0;
    for (let step = 0; counted < max && frame.state !== 'WIN'; step++) {
      const decision = agent.act(frame, { step, actions: counted, levelActions }) as AgentDecision;
      if (!('id' in decision)) break;
      if (decision.id === 0) {
        frame = service.command(key, 'RESET', { game_id: gameId, guid });
        if (!frame.full_reset) counted++;
        levelActions = 0;
      } else {
        const body = decision.id === 6 ? { game_id: gameId, guid, x: decision.x, y: decision.y } : { game_id: gameId, guid };
        frame = service.command(key, actionName(decision.id) as ActionName, body);
        counted++;
        levelActions++;
      }
    }
    actions += counted;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSeconds = (cpuMicroseconds() - cpuStarted) / 1e6;
  service.closeScorecard(key, { card_id: cardId });
  return { actions, seconds, cpuSeconds };
}

const suite: BenchSuite = {
  name: 'runner',
  async run(): Promise<BenchFigure[]> {
    await timedRun({ ...SETTINGS, episodesPerGame: 20 }); // warm-up: module loading and JIT
    await bareLoop({ ...SETTINGS, episodesPerGame: 20 });
    const runner: number[] = [];
    const runnerCpu: number[] = [];
    const bare: number[] = [];
    const bareCpu: number[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    let episodes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await timedRun(SETTINGS);
      episodes = run.result.report.totals.episodes;
      runner.push(run.actionsPerSecond);
      runnerCpu.push(run.actionsPerCpuSecond);
      const loop = await bareLoop(SETTINGS);
      const bareRate = loop.actions / loop.seconds;
      const bareCpuRate = loop.actions / loop.cpuSeconds;
      bare.push(bareRate);
      bareCpu.push(bareCpuRate);
      ratios.push(bareRate / run.actionsPerSecond);
      cpuRatios.push(bareCpuRate / run.actionsPerCpuSecond);
    }
    const recorded = await recordingRounds();
    const rate = (value: number) => Math.round(value).toLocaleString('en-US');
    const spread = (values: number[]) => `${rate(Math.min(...values))}–${rate(Math.max(...values))}`;
    return [
      {
        figure: `in-process runner, random agent, ${episodes} episodes, recordings off`,
        value: median(runner),
        unit: 'actions/s',
        target: { op: '>=', value: 50_000 },
        note: `wall time, median of ${ROUNDS}, range ${spread(runner)}; per CPU second (GC threads included) ${rate(median(runnerCpu))}`,
      },
      {
        figure: 'bare loop, same decisions straight to ReferenceService.command',
        value: median(bare),
        unit: 'actions/s',
        note: `wall time, median of ${ROUNDS}, range ${spread(bare)}; per CPU second ${rate(median(bareCpu))}`,
      },
      {
        figure: 'runner overhead (bare loop rate / runner rate)',
        value: median(ratios),
        unit: '×',
        target: { op: '<=', value: 1.5 },
        note: `median of ${ROUNDS} rounds' own ratios, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; by CPU seconds ${median(cpuRatios).toFixed(2)}×`,
      },
      {
        figure: 'in-process runner, same run with gzip recordings (the default)',
        value: median(recorded.gzip),
        unit: 'actions/s',
        note: `wall time, median of ${RECORDING_ROUNDS}, range ${spread(recorded.gzip)}; one recording file per episode, 80 actions each`,
      },
      {
        figure: 'gzip recordings: runner rate as a share of its rate with recordings off',
        value: median(recorded.gzipShare),
        unit: '%',
        target: { op: '>=', value: 40 },
        note: `median of ${RECORDING_ROUNDS} rounds, each against an off run just before it, range ${Math.min(...recorded.gzipShare).toFixed(0)}–${Math.max(...recorded.gzipShare).toFixed(0)}%`,
      },
      {
        figure: 'plain (jsonl) recordings: the same share',
        value: recorded.jsonlShare,
        unit: '%',
        note: 'one round; every line is ~9 KB of text written out',
      },
      {
        figure: `gzip recordings, the same share with the run folders in memory (${MEMORY_FOLDER}): what the code costs without the disk`,
        value: recorded.memoryShare ?? Number.NaN,
        unit: '%',
        note: recorded.memoryShare === undefined ? `no ${MEMORY_FOLDER} here` : 'median of 3 rounds',
      },
      {
        figure: 'making one file in the temporary folder, kernel time (one per recorded episode)',
        value: median(recorded.fileCreation),
        unit: 'µs',
        note: `before and after the gzip rounds: ${recorded.fileCreation.map((µs) => µs.toFixed(0)).join(' and ')} µs; 2,004 files a run`,
      },
    ];
  },
};

const RECORDING_ROUNDS = 5;
/** A RAM-backed folder, where a run's recordings cost our code only, not the disk's file creation. */
const MEMORY_FOLDER = '/dev/shm';

interface RecordingFigures {
  gzip: number[];
  gzipShare: number[];
  jsonlShare: number;
  /** The same share with the run folders in MEMORY_FOLDER; undefined where there is none. */
  memoryShare: number | undefined;
  /** µs of kernel time to make one file in the temporary folder, measured before and after the rounds. */
  fileCreation: number[];
}

/** Runs with gzip recordings, each paired with a run with recordings off just before it, then one plain run. */
async function recordingRounds(): Promise<RecordingFigures> {
  await timedRun({ ...SETTINGS, episodesPerGame: 20, recordings: 'gzip' }); // warm-up of the recording path
  const fileCreation = [fileCreationMicroseconds()];
  const gzip: number[] = [];
  const gzipShare: number[] = [];
  let off = 0;
  for (let round = 0; round < RECORDING_ROUNDS; round++) {
    off = (await timedRun(SETTINGS)).actionsPerSecond;
    const gzipped = (await timedRun({ ...SETTINGS, recordings: 'gzip' })).actionsPerSecond;
    gzip.push(gzipped);
    gzipShare.push((100 * gzipped) / off);
  }
  fileCreation.push(fileCreationMicroseconds());
  const jsonl = (await timedRun({ ...SETTINGS, recordings: 'jsonl' })).actionsPerSecond;
  return { gzip, gzipShare, jsonlShare: (100 * jsonl) / off, memoryShare: await memoryShare(), fileCreation };
}

/** The median gzip share of three rounds with the run folders in memory. */
async function memoryShare(): Promise<number | undefined> {
  if (!existsSync(MEMORY_FOLDER)) return undefined;
  const shares: number[] = [];
  for (let round = 0; round < 3; round++) {
    const off = (await timedRun({ ...SETTINGS, under: MEMORY_FOLDER })).actionsPerSecond;
    shares.push((100 * (await timedRun({ ...SETTINGS, recordings: 'gzip', under: MEMORY_FOLDER })).actionsPerSecond) / off);
  }
  return median(shares);
}

/**
 * What making one small file costs in the temporary folder, in kernel time: a run with recordings makes
 * one per episode. A figure far above 60 µs says thousands of files were deleted there in the minutes
 * before, and the gzip share paid for it (scratch.ts says why).
 */
function fileCreationMicroseconds(): number {
  const dir = scratchFolder('file-creation');
  const files = 500;
  const started = process.cpuUsage();
  for (let i = 0; i < files; i++) closeSync(openSync(join(dir, `${i}.recording.jsonl.gz`), 'a'));
  return process.cpuUsage(started).system / files;
}
export default suite;
