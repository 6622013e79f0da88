/**
 * What a resume costs before it plays anything, on a run folder of 10,000 finished episodes: reading the
 * folder back (run.json checked by its schema, every episodes.jsonl line parsed and checked), choosing
 * what is left to play, and a whole resume of that folder with nothing left (read, choose, write
 * run.json and the table, score 10,000 episodes locally), through the same runExperiment as
 * `arcbench resume`.
 *
 * The folder is made from real runs: the 10,000-episode experiment stopped at once on its wall time
 * writes run.json, then its episodes.jsonl is filled with one record per planned episode, cloned from
 * the records of a small complete run of the same games.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExperiment, runExperiment } from '../src/index.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { planEpisodes } from '../src/runner/plan.ts';
import { selectEpisodes } from '../src/runner/resume/resumeSelection.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { scratchFolder } from './scratch.ts';
import { cpuMicroseconds, median } from './measure.ts';

const GAMES = ['crat', 'flod', 'keys', 'lamp', 'slid'];
const EPISODES_PER_GAME = 2_000;
const FINISHED = GAMES.length * EPISODES_PER_GAME;
const ROUNDS = 7;

const yaml = (extraBudget: string, episodes = EPISODES_PER_GAME) =>
  [
    'name: resume-bench',
    `games: [${GAMES.join(', ')}]`,
    'agents: [{ use: random }]',
    `episodes: ${episodes}`,
    'seed: 1',
    `budgets: { max_actions: 80${extraBudget} }`,
    'recordings: false',
    '',
  ].join('\n');

/** The big run stopped on its wall time, then its episodes.jsonl replaced by one real record per planned episode. */
async function makeFolder(dir: string): Promise<string> {
  const load = (text: string) => parseExperiment(text, { file: join(dir, 'bench.yaml'), baseDir: dir });
  const small = await runExperiment(await load(yaml('', 2)), { out: join(dir, 'small') });
  const samples = new Map<string, EpisodeRecord>(small.episodes.map((record) => [record.game_id, record]));
  const out = join(dir, 'run');
  const big = await runExperiment(await load(yaml(', run_seconds: 0.01')), { out });
  const lines: string[] = [];
  for (const game of big.report.games) {
    const sample = samples.get(game);
    if (sample === undefined) throw new Error(`bench resume: the small run played no episode of ${game}`);
    for (let episode = 0; episode < EPISODES_PER_GAME; episode++) lines.push(JSON.stringify({ ...sample, episode }));
  }
  writeFileSync(join(out, 'episodes.jsonl'), `${lines.join('\n')}\n`);
  return out;
}

/** CPU milliseconds of this process: other processes' load on the shared machine barely moves it. */
function cpuMs(fn: () => unknown): number {
  const started = cpuMicroseconds();
  fn();
  return (cpuMicroseconds() - started) / 1000;
}

const suite: BenchSuite = {
  name: 'resume',
  async run(): Promise<BenchFigure[]> {
    const dir = scratchFolder('resume');
    const out = await makeFolder(dir);
    const bytes = () => readFileSync(join(out, 'episodes.jsonl')).length + readFileSync(join(out, 'run.json')).length;
    const experiment = await parseExperiment(yaml(''), { file: join(dir, 'bench.yaml'), baseDir: dir });
    const games = readRunFolder(out).report.games.map((id) => ({ game_id: id }) as never);
    const plan = { games, episodes: planEpisodes(experiment, games) };

    const reads: number[] = [];
    const selections: number[] = [];
    const resumes: number[] = [];
    // Resumes first: after one, run.json is what a finished 10,000-episode run leaves (every card and local score).
    for (let round = 0; round < 3; round++) {
      const started = cpuMicroseconds();
      const result = await runExperiment(experiment, { resume: { runDir: out } });
      resumes.push((cpuMicroseconds() - started) / 1000);
      if (result.report.totals.episodes !== FINISHED || result.report.attempts.at(-1)!.to_play !== 0) {
        throw new Error(`bench resume: expected ${FINISHED} finished episodes and none to play, got ${JSON.stringify(result.report.totals)}`);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      let folder = readRunFolder(out);
      reads.push(cpuMs(() => (folder = readRunFolder(out))));
      selections.push(cpuMs(() => selectEpisodes(plan, folder.records, { attempt: 2, retryErrors: false, where: out })));
    }
    const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;
    return [
      {
        figure: `read a run folder of ${FINISHED.toLocaleString('en-US')} finished episodes (run.json + episodes.jsonl, ${(bytes() / 2 ** 20).toFixed(1)} MiB)`,
        value: median(reads),
        unit: 'ms',
        target: { op: '<=', value: 200 },
        note: `CPU time, median of ${ROUNDS}, range ${spread(reads)}`,
      },
      {
        figure: 'choose the episodes left to play (10,000 records against the plan)',
        value: median(selections),
        unit: 'ms',
        note: `CPU time, median of ${ROUNDS}, range ${spread(selections)}`,
      },
      {
        figure: 'resume of that folder with nothing left to play, in-process (read, settle, score 10,000 episodes, write run.json and table)',
        value: median(resumes),
        unit: 'ms',
        note: `CPU time (GC threads included), median of 3, range ${spread(resumes)}`,
      },
    ];
  },
};
export default suite;
