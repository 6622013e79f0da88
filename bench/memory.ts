/**
 * Memory, each figure in a fresh child process (node --expose-gc) so no other suite's heap is in its
 * RSS, measured right after a full GC:
 * - 1,000 sessions open on the in-process reference service (one card, a RESET per session);
 * - the real runner in-process, gzip recordings on (the default), RSS after 10,000 and after 100,000
 *   actions of one run: episodes and recordings are streamed to disk, so it must stay flat.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InProcessTransport } from '../src/client/inProcessTransport.ts';
import { parseExperiment, runExperiment } from '../src/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { experimentYaml } from './benchExperiment.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { scratchFolder } from './scratch.ts';

const SESSIONS = 1_000;
const EARLY_ACTIONS = 10_000;
const LATE_ACTIONS = 100_000;
const MiB = 2 ** 20;

function rssAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('bench/memory.ts: run the child with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().rss;
}

async function openSessions(): Promise<Record<string, number>> {
  const transport = new InProcessTransport(new ReferenceService({ seed: 1 }));
  const games = await transport.listGames();
  const cardId = await transport.openScorecard({ tags: ['bench'] });
  const before = rssAfterGc();
  const frames = [];
  for (let i = 0; i < SESSIONS; i++) frames.push((await transport.reset(cardId, games[i % games.length]!.game_id)).guid);
  return { before, open: rssAfterGc(), sessions: frames.length };
}

/** One run of random over all games, recordings on, long enough for LATE_ACTIONS; RSS sampled on the way. */
async function streamedRun(): Promise<Record<string, number>> {
  const dir = scratchFolder('streamed');
  const episodesPerGame = Math.ceil((LATE_ACTIONS * 1.05) / 80 / 6);
  const yaml = experimentYaml({ target: 'reference', episodesPerGame, maxActions: 80, concurrency: 4, recordings: 'gzip' });
  const experiment = await parseExperiment(yaml, { file: join(dir, 'bench.yaml'), baseDir: dir });
  const samples: Record<string, number> = {};
  await runExperiment(experiment, {
    out: join(dir, 'run'),
    progress: {
      update({ actions }) {
        if (samples.early === undefined && actions >= EARLY_ACTIONS) samples.early = rssAfterGc();
        if (samples.late === undefined && actions >= LATE_ACTIONS) samples.late = rssAfterGc();
      },
      stop() {},
    },
  });
  return samples;
}

const CHILD_FIGURES: Record<string, () => Promise<Record<string, number>>> = { sessions: openSessions, streamed: streamedRun };

async function inChild(what: string): Promise<Record<string, number>> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', 'bin/run-ts.js', 'bench/memory.ts', '--child', what], {
    cwd: root,
    maxBuffer: MiB,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
}

/** A figure the child reported, or an error naming it (a run that stopped short of LATE_ACTIONS has no `late`). */
function reported(values: Record<string, number>, name: string): number {
  const value = values[name];
  if (value === undefined) throw new Error(`bench/memory.ts: the child reported no "${name}", only ${JSON.stringify(values)}`);
  return value;
}

const suite: BenchSuite = {
  name: 'memory',
  async run(): Promise<BenchFigure[]> {
    const sessions = await inChild('sessions');
    const streamed = await inChild('streamed');
    const mib = (bytes: number) => bytes / MiB;
    const early = reported(streamed, 'early');
    const late = reported(streamed, 'late');
    return [
      {
        figure: `RSS with ${SESSIONS.toLocaleString('en-US')} sessions open in-process`,
        value: mib(reported(sessions, 'open')),
        unit: 'MiB',
        target: { op: '<=', value: 400 },
        note: `fresh process after GC; ${mib(reported(sessions, 'before')).toFixed(0)} MiB before the sessions`,
      },
      { figure: `RSS after ${EARLY_ACTIONS.toLocaleString('en-US')} actions of a run (gzip recordings on)`, value: mib(early), unit: 'MiB' },
      { figure: `RSS after ${LATE_ACTIONS.toLocaleString('en-US')} actions of the same run`, value: mib(late), unit: 'MiB' },
      {
        figure: `RSS growth from ${EARLY_ACTIONS.toLocaleString('en-US')} to ${LATE_ACTIONS.toLocaleString('en-US')} actions`,
        value: (100 * (late - early)) / early,
        unit: '%',
        target: { op: '<=', value: 10 },
      },
    ];
  },
};
export default suite;

const childAt = process.argv.indexOf('--child');
if (childAt !== -1 && process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[childAt + 1] ?? '';
  const figure = CHILD_FIGURES[what];
  if (figure === undefined) throw new Error(`bench/memory.ts --child: expected one of ${Object.keys(CHILD_FIGURES).join(', ')}`);
  console.log(JSON.stringify(await figure()));
}
