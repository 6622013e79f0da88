/**
 * `arcbench merge`: the run folders of one experiment's shards (or any runs that together played its
 * plan once) become one run folder, as a single machine would have written it: episodes.jsonl with
 * every shard's records, recordings, and run.json, the tables, statistics and junit.xml made by the
 * same functions a run uses. Every shard's cards and attempts are kept, each marked with its folder.
 */
import { Redactor } from '../../redaction.ts';
import { copyFileSync, existsSync, linkSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { AgentDefinition } from '../../agent/defineAgent.ts';
import type { GameDescriptor } from '../../protocol/index.ts';
import type { Experiment } from '../config/loader.ts';
import type { ExperimentConfig } from '../config/schema.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { Plan } from '../plan.ts';
import { buildRunReport } from '../results/buildRunReport.ts';
import { statusAtRunEnd } from '../results/runCompleteness.ts';
import { createRunDirectory } from '../../runfolder/runDirectory.ts';
import { readRunFolder, rewriteEpisodeLog, type RunFolder } from '../../runfolder/readRunFolder.ts';
import { createRunLogger } from '../results/runLogger.ts';
import type { LineSink } from '../results/readableLog.ts';
import type { AttemptEntry, CardEntry, RunReport } from '../../runfolder/runReport.ts';
import { writeResults } from '../results/writeResults.ts';
import { type ResultFile, writeExtraResults } from '../runExperiment.ts';
import { writeManifest } from '../../runfolder/manifest.ts';
import { checkCoverage, checkSameExperiment, MergeError } from './shardCoverage.ts';
import { runFolderLayout } from '../../runfolder/layout.ts';

export interface MergeOptions {
  readonly out: string;
  /** Files written after the results, as a run writes them (the CLI adds report.html). */
  readonly extraResults?: readonly ResultFile[];
  /** Move a used `out` aside instead of refusing it. */
  readonly force?: boolean;
  readonly consoleLog?: LineSink;
}

export interface MergeResult {
  readonly runDir: string;
  readonly report: RunReport;
  readonly table: string;
}

export async function mergeRuns(paths: readonly string[], options: MergeOptions): Promise<MergeResult> {
  const folders = paths.map(readShard);
  checkSameExperiment(folders);
  checkCoverage(folders);
  const { dir } = createRunDirectory({ out: options.out, output: '.', name: 'merged', at: new Date(), recordings: false, force: options.force ?? false });
  const logger = createRunLogger(runFolderLayout(dir).log, options.consoleLog ? { console: options.consoleLog } : {});
  logger.info({ folders: folders.map((f) => f.dir) }, 'merging run folders');

  const all = renumberRuns(folders);
  rewriteEpisodeLog(dir, all);
  linkRecordings(folders, dir, logger);
  const records = all.filter((record) => record.superseded === undefined);
  const superseded = all.filter((record) => record.superseded !== undefined);
  const report = mergedReport(folders, records, superseded);
  const written = writeResults({ runDir: dir, report, agentLabels: report.agents.map((a) => a.label), episodes: records, logger });
  await writeExtraResults(dir, options.extraResults ?? [], logger);
  logger.info({ file: runFolderLayout(dir).manifest }, 'writing the manifest of the run folder');
  logger.flush();
  writeManifest(dir, written.report);
  return { runDir: dir, report: written.report, table: written.table };
}

/** A finished folder (a run still running, or one whose process died, is refused: resume it first). */
function readShard(path: string): RunFolder {
  const folder = readRunFolder(path);
  if (folder.report.status === 'running') {
    throw new MergeError(`${folder.dir} is still running, or its process died: wait for it to finish, or finish it with \`arcbench resume ${folder.dir}\``);
  }
  return folder;
}

/**
 * Copies of every folder's records (superseded ones too: their cards counted them), with run numbers
 * made unique: each folder's runs move past the previous folders', keeping their order within it,
 * which is the order its cards saw them in.
 */
function renumberRuns(folders: readonly RunFolder[]): EpisodeRecord[] {
  const all: EpisodeRecord[] = [];
  let offset = 0;
  for (const folder of folders) {
    let next = offset;
    for (const record of folder.records) {
      const copy: EpisodeRecord = { ...record, runs: record.runs.map((run) => ({ ...run, sequence: run.sequence + offset })) };
      for (const run of copy.runs) next = Math.max(next, run.sequence + 1);
      all.push(copy);
    }
    offset = next;
  }
  return all;
}

/**
 * Each record's recording (and transcript), hard-linked into the merged folder (copied across file
 * systems); missing ones are noted.
 */
function linkRecordings(folders: readonly RunFolder[], dir: string, logger: Logger): void {
  let missing = 0;
  for (const folder of folders) {
    for (const file of folder.records.flatMap((record) => [record.recording, record.transcript ?? null])) {
      if (file === null) continue;
      const from = join(folder.dir, file);
      const to = join(dir, file);
      if (!existsSync(from)) {
        missing++;
        continue;
      }
      mkdirSync(dirname(to), { recursive: true });
      if (existsSync(to)) continue;
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  }
  if (missing > 0)
    logger.warn({ missing }, `${missing} recording(s) or transcript(s) named in episodes.jsonl are not in their shard's folder; their records keep the name`);
}

/** `i/n (folder)`: where a card or attempt of the merged run came from. */
function origin(folder: RunFolder): string {
  const { shard } = folder.report;
  return shard === undefined ? basename(folder.dir) : `${shard.index}/${shard.count} (${basename(folder.dir)})`;
}

/**
 * run.json of the merged run, by the run's own builder. A merge loads no experiment (the folders may
 * come from another machine): the names and settings the builder reads come from the first folder's
 * run.json, checked above to be of the same experiment as the others.
 */
function mergedReport(folders: readonly RunFolder[], episodes: readonly EpisodeRecord[], superseded: readonly EpisodeRecord[]): RunReport {
  const first = folders[0]!.report;
  const experiment: Experiment = {
    file: first.config_file,
    baseDir: dirname(first.config_file),
    config: first.config as ExperimentConfig,
    agents: first.agents.map((a) => ({ label: a.label, use: a.use, params: a.params, definition: { name: a.agent } as AgentDefinition })),
    // The shards' run.json hold their config with secrets already redacted.
    redactor: new Redactor(),
  };
  const plan = { games: first.games.map((id) => ({ game_id: id }) as GameDescriptor), episodes } as unknown as Plan;
  const cards: CardEntry[] = folders.flatMap((folder) => folder.report.cards.map((card) => ({ ...card, shard: origin(folder) })));
  const attempts: AttemptEntry[] = folders.flatMap((folder) => folder.report.attempts.map((attempt) => ({ ...attempt, shard: origin(folder) })));
  const startedAt = folders.map((f) => f.report.started_at).sort()[0]!;
  const finishedAt =
    folders
      .map((f) => f.report.finished_at ?? '')
      .sort()
      .at(-1) || null;
  const report = buildRunReport({
    experiment,
    plan,
    fingerprint: { ...first.plan, planned_episodes: episodes.length },
    episodes,
    superseded,
    cards,
    attempts,
    overrides: first.overrides,
    provenance: first.provenance,
    startedAt,
    finishedAt,
    status: (totals) => statusAtRunEnd({ interrupted: false, stoppedOnRunTime: false, totals }),
  });
  return {
    ...report,
    merged_from: folders.map((folder) => ({
      folder: folder.dir,
      shard: folder.report.shard ?? null,
      status: folder.report.status,
      episodes: folder.episodes.length,
    })),
  };
}
