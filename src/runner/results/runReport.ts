/**
 * run.json: the run as a whole (config, provenance, one entry per agent with its card, totals). Its
 * shape is this zod schema, so a run folder can be read back and checked (resume, compare, report);
 * service objects inside it (scorecards) are kept as the service sent them.
 */
import { renameSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ScorecardAnswer } from '../../protocol/index.ts';
import type { ScoredCard } from '../../reference/scoring.ts';
import { ISSUE_OPTIONS, issueLines } from '../../protocol/index.ts';
import { ArcbenchError } from '../../errors.ts';

/** Version of run.json's layout; bumped when a field changes meaning. */
export const RUN_FORMAT = 'arcbench.run/1';

const RUN_STATUSES = ['running', 'completed', 'partial', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const count = z.number().int().min(0);
const serviceObject = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

const provenanceSchema = z.looseObject({
  git: z.object({ sha: z.string().nullable(), dirty: z.boolean().nullable() }),
  arcbench_version: z.string(),
  node_version: z.string(),
  platform: z.string(),
  seed: z.number(),
  target: z.string(),
  argv: z.array(z.string()),
});
export type Provenance = z.infer<typeof provenanceSchema>;

const agentResultSchema = z.looseObject({
  label: z.string(),
  use: z.string(),
  agent: z.string(),
  params: z.unknown(),
  card_id: z.string(),
  /** The card's page on the service's site (`<root>/scorecards/<card_id>`); null without one. */
  scorecard_url: z.string().nullable().default(null),
  /** The scorecard as the service returned it on close; null when closing failed. */
  scorecard: serviceObject<ScorecardAnswer>().nullable(),
  close_error: z.string().nullable(),
  /** The same card scored here from episodes.jsonl with the service's scoring code. */
  local_score: serviceObject<ScoredCard>(),
  /** Where local and service scores differ (empty: they agree); null without a closed card. */
  score_differences: z.array(z.string()).nullable(),
});
export type AgentResult = z.infer<typeof agentResultSchema>;

const runTotalsSchema = z.looseObject({
  planned_episodes: count,
  episodes: count,
  skipped_episodes: count,
  errors: count,
  close_errors: count,
  actions: count,
  requests: count,
  retries: count,
  retries_by_cause: z.record(z.string(), count),
  /** Scorecard opens whose answer was lost: each may have left an empty card open on the service. */
  unconfirmed_card_opens: count.default(0),
  /** Fields arcbench uses that the service's answers left out (each was warned about in run.log). */
  service_missing_fields: z.array(z.string()).default([]),
  wall_seconds: z.number().min(0),
  outcomes: z.record(z.string(), count),
});

const intervalSchema = z.object({ low: z.number(), high: z.number() });

/** A row of the results table (resultsTable.ts): per agent and game, and per agent a "total". */
export const tableRowSchema = z.looseObject({
  agent: z.string(),
  /** A game id, or "total". */
  game: z.string(),
  episodes: count,
  /** The scorecard's score: per game the best run's, in total the mean over games. */
  card_score: z.number(),
  /** Mean of the episodes' own scores (in total: the mean over games of the game means). */
  mean_score: z.number(),
  /** 95% bootstrap interval of mean_score; null below 2 episodes (in total: in any game). */
  interval: intervalSchema.nullable(),
  levels_completed: count,
  level_count: count,
  actions: count,
  wins: count,
  errors: count,
  /** False when the game's level baselines are unknown (in total: any game's): the scores are not computed. */
  baselines_known: z.boolean().optional(),
});
export type TableRow = z.infer<typeof tableRowSchema>;

export const runReportSchema = z.looseObject({
  format: z.literal(RUN_FORMAT),
  name: z.string(),
  status: z.enum(RUN_STATUSES),
  /** Why the run could not start (the key refused, the service out of reach, no card opened). */
  failure: z.string().optional(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  config_file: z.string(),
  config: z.unknown(),
  provenance: provenanceSchema,
  games: z.array(z.string()),
  /** Games whose level baselines the service gave nowhere: their local scores are not computed (0). */
  games_without_baselines: z.array(z.string()).default([]),
  agents: z.array(agentResultSchema),
  totals: runTotalsSchema,
  /** The results table; absent in runs of versions before it was kept here. */
  table: z.array(tableRowSchema).optional(),
});
export type RunReport = z.infer<typeof runReportSchema>;

export class RunFolderError extends ArcbenchError {
  constructor(message: string) {
    super('RUN_FOLDER_INVALID', message);
  }
}

/**
 * Writes run.json atomically: a temp file renamed over the old one, so a run killed mid-write leaves
 * the previous run.json whole, never half of a new one.
 */
export function writeRunReport(runDir: string, report: RunReport): void {
  const path = join(runDir, 'run.json');
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(report, null, 2) + '\n');
  renameSync(temp, path);
}

/** Reads and checks a run folder's run.json; a sentence names what is wrong. */
export function readRunReport(runDir: string): RunReport {
  const path = join(runDir, 'run.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RunFolderError(
      `${path}: cannot read run.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); is ${runDir} a run folder?`,
    );
  }
  const parsed = runReportSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) throw new RunFolderError(`${path}: not a run.json of this arcbench:\n${issueLines(parsed.error.issues).join('\n')}`);
  return parsed.data;
}
