/**
 * A run offered to the worker pool: its description (RunMeta) and state in Redis, and its place in the
 * list of runs workers look at; taken back off that list when it ends, its keys left to expire.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import type { Redis } from 'ioredis';
import type { RateLimit } from '../../client/http/originRateLimiter.ts';
import type { GameDescriptor } from '../../protocol/index.ts';
import type { PlanFingerprint, RunReport } from '../../runfolder/runReport.ts';
import type { Experiment } from '../../runner/config/loader.ts';
import { COMMAND_LINE_EXPERIMENT } from '../../runner/config/loader.ts';
import type { OpenTarget } from '../../runner/targets.ts';
import { packageManifest } from '../../packageFiles.ts';
import { rateBudget } from '../../runner/rateBudget.ts';
import { ACTIVE_RUNS, FINISHED_RUN_TTL_SECONDS, type RunKeys } from './runKeys.ts';
import { QUEUE_FORMAT, type RunMeta, type WorkerTarget } from './runMeta.ts';
import { writeRunState } from './runState.ts';

/** `<name>-<time>-<random>`: unique, sortable by start, and free of the `:` BullMQ refuses in queue names. */
export function newRunId(name: string, at = Date.now()): string {
  return `${name}-${at.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Where workers play: their own in-process reference, or the URL (the configured one, or the server this run started). */
function workerTargetOf(experiment: Experiment, target: OpenTarget): WorkerTarget {
  const configured = experiment.config.target;
  if (configured === 'reference') return { kind: 'reference' };
  if ('url' in configured) return { kind: 'url', url: configured.url, api_key_from_config: true };
  return { kind: 'url', url: target.transport.target, api_key_from_config: false };
}

export interface PublishedRun {
  readonly runId: string;
  readonly experiment: Experiment;
  readonly target: OpenTarget;
  readonly fingerprint: PlanFingerprint;
  readonly games: readonly GameDescriptor[];
  readonly overrides: RunReport['overrides'];
  readonly runDir: string;
  readonly attempt?: number | undefined;
}

export function runMetaOf(run: PublishedRun): RunMeta {
  const { experiment } = run;
  // A run without a file (`--agent random --game crat`) is rebuilt by workers from its overrides.
  const text = experiment.file === COMMAND_LINE_EXPERIMENT ? '' : readFileSync(experiment.file, 'utf8');
  const workerTarget = workerTargetOf(experiment, run.target);
  const budget: RateLimit | false = workerTarget.kind === 'url' ? rateBudget(experiment.config, workerTarget.url) : false;
  return {
    format: QUEUE_FORMAT,
    run_id: run.runId,
    arcbench_version: packageManifest().version,
    name: experiment.config.name,
    config_file: experiment.file,
    config_file_relative: experiment.file === COMMAND_LINE_EXPERIMENT ? experiment.file : relative(process.cwd(), experiment.file),
    config_text: text,
    overrides: { ...run.overrides },
    plan: run.fingerprint,
    games: [...run.games],
    target: workerTarget,
    rate_limit: budget === false ? null : { requests: budget.requests, interval_ms: budget.intervalMs },
    recordings: experiment.config.recordings !== false,
    run_folder: basename(run.runDir),
    ...(run.attempt === undefined ? {} : { attempt: run.attempt }),
    created_at: new Date().toISOString(),
  };
}

export async function publishRun(redis: Redis, keys: RunKeys, meta: RunMeta): Promise<void> {
  await redis.set(keys.meta, JSON.stringify(meta));
  await writeRunState(redis, keys, { phase: 'running' });
  await redis.zadd(ACTIVE_RUNS, Date.now(), meta.run_id);
}

/** Ended: off the list workers look at; its keys stay a day for a look with redis-cli. */
export async function retireRun(redis: Redis, keys: RunKeys, runId: string): Promise<void> {
  await writeRunState(redis, keys, { phase: 'ended' });
  await redis.zrem(ACTIVE_RUNS, runId);
  for (const key of keys.all()) await redis.expire(key, FINISHED_RUN_TTL_SECONDS);
}
