/**
 * Shards and merge: shards 0/3, 1/3 and 2/3 of one experiment, one of them interrupted and resumed,
 * merged into one run folder equal to an unsharded run of the same seed (episodes, scores, table), with
 * every shard's cards; and the merges that must be refused, each with a sentence that names the
 * episodes or the folder.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, loadExperiment } from '../src/runner/config/loader.ts';
import { keyOfRecord } from '../src/runfolder/episodeKey.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import type { RunReport, TableRow } from '../src/runfolder/runReport.ts';
import { type RunResult, runExperiment } from '../src/runner/runExperiment.ts';
import { mergeRuns } from '../src/runner/merge/mergeRuns.ts';
import { verifyRunFolder } from '../src/runner/results/verifyRun.ts';
import { MergeError } from '../src/runner/merge/shardCoverage.ts';
import { writeReport } from '../src/report/writeReport.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-shards-'));
const EXPERIMENT = [
  'target: reference',
  'games: [lamp, crat]',
  'agents: [{ use: random }, { use: explorer }]',
  'episodes: 3',
  'budgets: { max_actions: 12 }',
  'concurrency: 1',
];

function experimentFile(name: string, seed: number): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`name: shards`, `seed: ${seed}`, ...EXPERIMENT, ''].join('\n'));
  return file;
}

let experiment: Experiment;
let whole: RunResult;
const shardDir = (index: number) => join(dir, `shard-${index}`);
const readReport = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;

async function mergeError(paths: string[], out: string): Promise<string> {
  try {
    await mergeRuns(paths, { out: join(dir, out) });
  } catch (error) {
    expect(error).toBeInstanceOf(MergeError);
    return (error as Error).message;
  }
  throw new Error('the merge was not refused');
}

beforeAll(async () => {
  experiment = await loadExperiment(experimentFile('shards', 9));
  whole = await runExperiment(experiment, { out: join(dir, 'whole') });
  await runExperiment(experiment, { out: shardDir(0), shard: { index: 0, count: 3 } });
  // Shard 1 is interrupted before it plays (Ctrl-C as it starts), so it has to be resumed before it can
  // be merged. Interrupted once an episode is in its results, it could be complete: the episodes played
  // while that one's recording was being finished are kept.
  const interrupt = new AbortController();
  interrupt.abort();
  const stopped = await runExperiment(experiment, { out: shardDir(1), shard: { index: 1, count: 3 }, signal: interrupt.signal });
  expect(stopped.report.status).toBe('interrupted');
  await runExperiment(experiment, { out: shardDir(2), shard: { index: 2, count: 3 } });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shards of one experiment', () => {
  it('play disjoint parts of the plan, and a shard folder remembers its part', () => {
    const keys = [0, 1, 2].map((i) => readRunFolder(shardDir(i)).records.map(keyOfRecord));
    expect(new Set(keys.flat()).size).toBe(keys.flat().length);
    expect(readReport(shardDir(2)).shard).toEqual({ index: 2, count: 3 });
    expect(readReport(shardDir(0)).plan.hash).toBe(whole.report.plan.hash);
  });

  it('are refused while one is unfinished, naming the episodes it still lacks and how to finish it', async () => {
    const message = await mergeError([shardDir(0), shardDir(1), shardDir(2)], 'early');
    expect(message).toMatch(
      /^the folders do not cover the plan exactly:\n\d+ planned episode\(s\) are in no folder: episode \d of (random|explorer) on (lamp|crat)-/,
    );
    expect(message).toContain('`arcbench resume <its folder>`');
  });

  it('merge, after the interrupted shard is resumed, into the unsharded run: same episodes, scores and table, every shard’s cards', async () => {
    const resumed = await runExperiment(experiment, { resume: { runDir: shardDir(1) } });
    expect(resumed.report.status).toBe('completed');
    expect(resumed.report.shard).toEqual({ index: 1, count: 3 });

    const merged = await mergeRuns([shardDir(0), shardDir(1), shardDir(2)], {
      out: join(dir, 'merged'),
      extraResults: [{ name: 'report.html', write: writeReport }],
    });
    expect(merged.report.status).toBe('completed');
    const folder = readRunFolder(merged.runDir);
    expect(folder.episodes.map(keyOfRecord).sort()).toEqual(whole.episodes.map(keyOfRecord).sort());
    const played = new Map(folder.episodes.map((r) => [keyOfRecord(r), r]));
    for (const record of whole.episodes) {
      const mine = played.get(keyOfRecord(record))!;
      expect([mine.outcome, mine.actions, mine.levels_completed, mine.score, mine.seed]).toEqual([
        record.outcome,
        record.actions,
        record.levels_completed,
        record.score,
        record.seed,
      ]);
      expect(existsSync(join(merged.runDir, mine.recording!))).toBe(true);
    }
    expect(merged.report.agents.map((a) => a.local_score)).toEqual(whole.report.agents.map((a) => a.local_score));
    // Wall-clock times differ from run to run; every other figure of the table is the same.
    const untimed = (rows: readonly TableRow[] | undefined) => rows?.map(({ level_seconds: _seconds, ...row }) => row);
    expect(untimed(merged.report.table)).toEqual(untimed(whole.report.table));
    expect(merged.report.totals).toMatchObject({ planned_episodes: 12, episodes: 12, skipped_episodes: 0, errors: 0 });
    expect(merged.report.plan.hash).toBe(whole.report.plan.hash);
    // The interrupted attempt's cut episode is kept as superseded, as in the shard's own folder.
    expect(folder.records.length - folder.episodes.length).toBe(readRunFolder(shardDir(1)).records.length - readRunFolder(shardDir(1)).episodes.length);
    const shardCards = [0, 1, 2].flatMap((i) => readReport(shardDir(i)).cards);
    expect(merged.report.cards.map((c) => c.card_id)).toEqual(shardCards.map((c) => c.card_id));
    expect(new Set(merged.report.cards.map((c) => c.card_id)).size).toBe(shardCards.length);
    expect(merged.report.cards.every((c) => /^\d\/3 \(shard-\d\)$/.test(c.shard ?? ''))).toBe(true);
    expect(merged.report.cards.filter((c) => c.state === 'closed').every((c) => c.score_differences?.length === 0)).toBe(true);
    expect(merged.report.merged_from?.map((m) => m.shard)).toEqual([0, 1, 2].map((index) => ({ index, count: 3 })));
    expect(existsSync(join(merged.runDir, 'junit.xml'))).toBe(true);
    expect(readFileSync(join(merged.runDir, 'report.html'), 'utf8')).toContain('<html');
    // table.md alike but for the last column of its levels section, the seconds each level took.
    const untimedMarkdown = (path: string) => {
      const [table, levels = ''] = readFileSync(path, 'utf8').split('## Levels across episodes and repeats');
      return [table, ...levels.split('\n').map((line) => line.replace(/ \| [^|]* \|$/, ' |'))];
    };
    expect(untimedMarkdown(join(merged.runDir, 'table.md'))).toEqual(untimedMarkdown(join(dir, 'whole', 'table.md')));
    // The merged folder checks out as a run's does: its manifest, and every episode against its recording.
    expect((await verifyRunFolder(merged.runDir)).problems).toEqual([]);
  });

  it('are refused when a shard is given twice, naming the duplicated episodes', async () => {
    const message = await mergeError([shardDir(0), shardDir(1), shardDir(2), shardDir(0)], 'twice');
    expect(message).toMatch(/episode\(s\) are in two folders: episode \d of \w+ on \w+-[0-9a-f]{8} \(in .*shard-0 and .*shard-0\)/);
  });

  it('are refused when they come from different experiments, saying what differs', async () => {
    const other = await runExperiment(await loadExperiment(experimentFile('other', 10)), { out: join(dir, 'other'), shard: { index: 1, count: 3 } });
    const message = await mergeError([shardDir(0), other.runDir, shardDir(2)], 'mixed');
    expect(message).toContain(`${other.runDir} was played with another experiment than ${shardDir(0)} (seed (was 9, now 10))`);
  });
});
