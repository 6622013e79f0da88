/**
 * What a worker needs to play a run, kept in Redis under the run: the experiment file's text and path
 * (agents' plugin paths resolve relative to it, so workers run from the same checkout), the command
 * line's overrides, the plan's hash to check the worker rebuilt the same experiment, and where the
 * games are. A worker reads it with this schema and refuses a run written by another layout.
 */
import { z } from 'zod';
import { gameDescriptorSchema, ISSUE_OPTIONS, issueLines } from '../../protocol/index.ts';
import type { GameDescriptor } from '../../protocol/index.ts';
import { planFingerprintSchema, runReportSchema } from '../../runfolder/runReport.ts';
import { ArcbenchError } from '../../errors.ts';

export const QUEUE_FORMAT = 'arcbench.queue/1';

/**
 * `reference`: each worker plays on an in-process reference service of its own. `url`: the service at
 * `url`; `api_key_from_config` says whether the worker takes the key from the experiment (expanded from
 * its own environment, never carried through Redis) or uses our local servers' key (a server the
 * coordinator started for the run).
 */
const workerTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reference') }),
  z.object({ kind: z.literal('url'), url: z.string(), api_key_from_config: z.boolean() }),
]);
export type WorkerTarget = z.infer<typeof workerTargetSchema>;

export const runMetaSchema = z.object({
  format: z.literal(QUEUE_FORMAT),
  run_id: z.string(),
  arcbench_version: z.string(),
  name: z.string(),
  /** The experiment file as the coordinator read it: absolute, and relative to the coordinator's working folder. */
  config_file: z.string(),
  config_file_relative: z.string(),
  config_text: z.string(),
  overrides: runReportSchema.shape.overrides,
  /** The plan's fingerprint, and the games as the coordinator listed them: a worker's experiment must give the same fingerprint. */
  plan: planFingerprintSchema,
  games: z.array(gameDescriptorSchema),
  target: workerTargetSchema,
  /** The request budget all workers share (null: none). */
  rate_limit: z.object({ requests: z.number(), interval_ms: z.number() }).nullable(),
  /** Whether the run keeps recordings, and the name of its folder (workers write into <recordings-dir>/<folder>/recordings/). */
  recordings: z.boolean(),
  run_folder: z.string(),
  /** The run's attempt (a resume's is past 1), for the checkpoints workers keep; absent: 1. */
  attempt: z.int().min(1).optional(),
  created_at: z.string(),
});
/** The games typed as the protocol types them (the schema checks them; it cannot say `exactOptionalPropertyTypes`). */
export type RunMeta = Omit<z.infer<typeof runMetaSchema>, 'games'> & { games: GameDescriptor[] };

/** A run in Redis that this worker cannot play as it is (another layout, a damaged entry). */
export class QueueRunError extends ArcbenchError {
  constructor(message: string) {
    super('QUEUE_RUN_INVALID', message);
  }
}

export function parseRunMeta(text: string | null, runId: string): RunMeta {
  if (text === null) throw new QueueRunError(`run ${runId} has no description in Redis (it ended, or its keys were removed)`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new QueueRunError(`run ${runId}: its description in Redis is not JSON`);
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== QUEUE_FORMAT) {
    throw new QueueRunError(
      `run ${runId} was queued in layout ${String(format)}, this worker reads ${QUEUE_FORMAT}; run workers of the coordinator's arcbench version`,
    );
  }
  const parsed = runMetaSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) throw new QueueRunError(`run ${runId}: its description in Redis is damaged:\n${issueLines(parsed.error.issues).join('\n')}`);
  return parsed.data as RunMeta;
}
