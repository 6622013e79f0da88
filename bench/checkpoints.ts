/**
 * What an episode's checkpoint (src/runfolder/checkpointFile.ts) costs a step: the explorer
 * agent in-process, episodes played through playEpisode itself, without checkpoints, with what
 * in-process runs do (their sessions cannot be continued: an in-flight file only for an episode that
 * has played a second, so none here; a file for every episode was 11–21% of a step), and with the two
 * writes per step that a service URL's episodes get (forced here on the in-process service, to put a
 * figure on it against the cheapest step there is). Recordings off (the writes alone), then gzip (a
 * step's checkpoint also waits for the recording thread to confirm its line). Rounds interleave the
 * modes; each figure is a median of CPU time per counted action.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseExperiment } from '../src/index.ts';
import { GameBaselines } from '../src/episode/gameBaselines.ts';
import { type EpisodeEnvironment, playEpisode } from '../src/episode/runEpisode.ts';
import { planEpisodes } from '../src/runner/plan.ts';
import { referenceTransport } from '../src/runner/targets.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { cpuMicroseconds, median } from './measure.ts';
import { scratchFolder } from './scratch.ts';

const EPISODES_PER_GAME = 3;
const MAX_ACTIONS = 200;
const ROUNDS = 3;
type Mode = 'none' | 'once' | 'every step';
type Recordings = 'gzip' | false;

/** µs of CPU per counted action over every game's episodes, played one after another. */
async function playRound(mode: Mode, recordings: Recordings): Promise<number> {
  const dir = scratchFolder('checkpoints');
  mkdirSync(join(dir, 'recordings'));
  const yaml = `name: cp\ngames: all\nagents: [{ use: explorer }]\nepisodes: ${EPISODES_PER_GAME}\nseed: 3\nbudgets: { max_actions: ${MAX_ACTIONS} }\n`;
  const experiment = await parseExperiment(yaml, { file: join(dir, 'cp.yaml'), baseDir: dir });
  const transport = referenceTransport(3);
  const specs = planEpisodes(experiment, await transport.listGames());
  const cardId = await transport.openScorecard({});
  let sequence = 0;
  const env: EpisodeEnvironment = {
    transport,
    cardId,
    budgets: experiment.config.budgets,
    recordings: recordings === false ? undefined : { dir: join(dir, 'recordings'), format: recordings },
    signal: new AbortController().signal,
    abortOutcome: () => 'cancelled',
    baseDir: dir,
    nextRunSequence: () => sequence++,
    baselines: new GameBaselines(transport, true, { unknown: () => undefined }),
    competition: false,
    ...(mode === 'none'
      ? {}
      : { checkpoints: { runDir: dir, attempt: 1, target: transport.target, notContinuable: mode === 'once' ? 'in-process' : undefined } }),
  };
  let actions = 0;
  const started = cpuMicroseconds();
  for (const spec of specs) {
    const played = await playEpisode(spec, env);
    const record = await played.finished;
    played.checkpoints.remove();
    if (record.outcome === 'error') throw new Error(`bench checkpoints: ${JSON.stringify(record.error)}`);
    actions += record.actions;
  }
  const micros = cpuMicroseconds() - started;
  await transport.close();
  return micros / actions;
}

async function figuresFor(recordings: Recordings): Promise<BenchFigure[]> {
  const modes: Mode[] = ['none', 'once', 'every step'];
  const samples = new Map<Mode, number[]>(modes.map((mode) => [mode, []]));
  const overheads = new Map<Mode, number[]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const none = await playRound('none', recordings);
    samples.get('none')!.push(none);
    for (const mode of modes.slice(1)) {
      const µs = await playRound(mode, recordings);
      samples.get(mode)!.push(µs);
      overheads.get(mode)!.push((100 * (µs - none)) / none);
    }
  }
  const label = recordings === false ? 'recordings off' : 'gzip recordings';
  return [
    {
      figure: `explorer in-process, ${label}, no checkpoints: CPU per counted action`,
      value: median(samples.get('none')!),
      unit: 'µs',
      note: `median of ${ROUNDS}`,
    },
    {
      figure: `${label}: in-process policy (in-flight file after 1 s of play), added to a step`,
      value: median(overheads.get('once')!),
      unit: '%',
      target: { op: '<=', value: 5 },
      note: `median of ${ROUNDS} rounds' own ratios`,
    },
    {
      figure: `${label}: two checkpoint writes per step (a service URL's policy) forced in-process, added to a step`,
      value: median(overheads.get('every step')!),
      unit: '%',
      note: `${median(samples.get('every step')!).toFixed(0)} µs a step; against a network step (≥ 1 ms) or a model call (seconds) it is small, in-process it would dominate`,
    },
  ];
}

const suite: BenchSuite = {
  name: 'checkpoints',
  async run(): Promise<BenchFigure[]> {
    await playRound('every step', 'gzip'); // warm-up: module loading, JIT, the recording thread
    return [...(await figuresFor(false)), ...(await figuresFor('gzip'))];
  },
};
export default suite;
