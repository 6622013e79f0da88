/**
 * run.json: the run as a whole (config, provenance, the plan and its fingerprint, every card of every
 * attempt, one entry per agent, totals). Its shape is this zod schema, so a run folder can be read back
 * and checked (resume, compare, report); service objects inside it (scorecards) are kept as the service
 * sent them. It is written when an attempt starts, when a card opens or closes, and at the end.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EnvironmentEntry, ScorecardAnswer } from '../protocol/index.ts';
import type { ScoredCard } from '../reference/scoring.ts';
import { ISSUE_OPTIONS, issueLines } from '../protocol/index.ts';
import { ArcbenchError, RunFolderWriteError } from '../errors.ts';
import { emptyUsage } from '../agent/usage.ts';
import { indentedJson } from './indentedJson.ts';
import { RUN_FILE } from './fileNames.ts';
import { harnessCardSchema } from './harnessCard.ts';

/**
 * Version of run.json's layout; bumped when a field changes meaning. 2: a run may have several attempts
 * (resume); `cards`, `attempts` and `plan` added, `agents[].card_id` is the agent's latest card.
 */
export const RUN_FORMAT = 'arcbench.run/2';

const RUN_STATUSES = ['running', 'completed', 'partial', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const count = z.number().int().min(0);

/**
 * A card scored locally, as run.json keeps it: the scorecard's scores and totals per environment and
 * overall, without each environment's list of runs (one per episode, in episodes.jsonl already; kept
 * here they made run.json of a 10,000-episode run ten megabytes, rewritten on every card).
 */
export type LocalScore = Omit<ScoredCard, 'environments' | 'score' | 'tags_scores'> & {
  /** Null when a game's baselines are unknown (localScoring.ts UNKNOWN_SCORES_REASON). */
  score: number | null;
  environments: Array<Omit<EnvironmentEntry, 'runs' | 'score'> & { score: number | null }>;
  tags_scores: Array<Omit<ScoredCard['tags_scores'][number], 'score'> & { score: number | null }>;
};

/** Model usage summed over calls (src/agent/usage.ts); cost null when one call's cost is unknown. */
export const usageSchema = z.object({
  input_tokens: count,
  cached_input_tokens: count,
  reasoning_tokens: count,
  output_tokens: count,
  cost_usd: z.number().min(0).nullable(),
  calls: count,
  cached_calls: count.default(0),
});
/** One model call as episodes.jsonl and checkpoints keep it (ModelCallRecord, src/agent/usage.ts). */
export const modelCallSchema = z.object({
  step: count,
  model: z.string(),
  kind: z.enum(['action', 'compaction']),
  input_tokens: count,
  cached_input_tokens: count,
  reasoning_tokens: count,
  output_tokens: count,
  cost_usd: z.number().min(0).nullable(),
  cached: z.boolean(),
});

/** Run folders written before usage was kept read as having used no model. */
const usageOrNone = usageSchema.default(() => emptyUsage());
const serviceObject = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

/** A folder's commit (null outside a repository) and whether a tracked file differs from it. */
const gitStateSchema = z.object({ sha: z.string().nullable(), dirty: z.boolean().nullable() });
export type GitState = z.infer<typeof gitStateSchema>;

const provenanceSchema = z.looseObject({
  /** From arcbench's own package.json. */
  arcbench_version: z.string(),
  /** Only when arcbench ran from a git checkout of itself; null for an installed package. */
  arcbench_git: gitStateSchema.nullable(),
  /** The experiment file's folder and its git state: the user's code and configs. */
  experiment_git: gitStateSchema.extend({ folder: z.string() }),
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
  /** The agent's latest card ('' when none was opened); every card of every attempt is in `cards`. */
  card_id: z.string(),
  /** The card's page on the service's site (`<root>/scorecards/<card_id>`); null without one. */
  scorecard_url: z.string().nullable().default(null),
  /** That card as the service returned it on close (fields it leaves out missing); null when closing failed. */
  scorecard: serviceObject<ScorecardAnswer>().nullable(),
  close_error: z.string().nullable(),
  /** The agent's finished episodes of all attempts, scored here with the service's scoring code (see LocalScore). */
  local_score: serviceObject<LocalScore>(),
  /** Where that card and the local score of the episodes played on it differ (empty: they agree); null without a closed card. */
  score_differences: z.array(z.string()).nullable(),
  /** Model usage of the agent's episodes, in all and per game id. */
  usage: usageOrNone,
  usage_by_game: z.record(z.string(), usageSchema).default({}),
  /** One arm of a factorial entry (docs/experiments.md): the entry's label and the arm's level of each factor. */
  arm: z.object({ of: z.string(), levels: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }).optional(),
});
export type AgentResult = z.infer<typeof agentResultSchema>;

/**
 * `open`: opened and not (yet) closed. `closed`: closed, `scorecard` is the service's answer.
 * `close_failed`: a close was tried and failed (`close_error` says why; a resume tries again).
 * `lost`: a dead attempt's card that nothing can close any more (its in-process service or started
 * server ended with that process); `close_error` says so.
 */
const CARD_STATES = ['open', 'closed', 'close_failed', 'lost'] as const;

const cardEntrySchema = z.looseObject({
  card_id: z.string(),
  /** The agent label the card belongs to. */
  agent: z.string(),
  /** Where it was opened: `in-process`, `server on …`, or the service URL. */
  target: z.string(),
  attempt: z.int().min(1),
  opened_at: z.string(),
  state: z.enum(CARD_STATES),
  closed_at: z.string().nullable(),
  /** The attempt that closed it (or found it lost): a later one for a card a dead attempt left open. */
  closed_by_attempt: z.int().min(1).nullable(),
  scorecard: serviceObject<ScorecardAnswer>().nullable(),
  close_error: z.string().nullable(),
  score_differences: z.array(z.string()).nullable(),
  /**
   * The load balancer's affinity cookies (docs/protocol.md §7, `name=value`) from the open answer: a resumed run
   * needs them to reach the backend that holds a card a dead run left open. Routing tokens, no secret.
   */
  affinity: z.array(z.string()),
  /** A later attempt that continued this card's episodes from their checkpoints (and closes it). */
  continued_by_attempt: z.int().min(1).optional(),
  /** The worker that opened it, in a worker-pool run (`arcbench worker`); absent for the run's own cards. */
  worker: z.string().optional(),
  /** In a merged run: the shard (`i/n (folder)`) it comes from. */
  shard: z.string().optional(),
});
export type CardEntry = z.infer<typeof cardEntrySchema>;

const attemptSchema = z.looseObject({
  attempt: z.int().min(1),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** `running` until the attempt ends; `died` when a resume found its process gone while it ran. */
  status: z.enum([...RUN_STATUSES, 'died']),
  target: z.string(),
  /** `reference`, `server` (started by the run, gone with its process) or `url`. */
  target_kind: z.enum(['reference', 'server', 'url']),
  pid: z.int(),
  hostname: z.string(),
  provenance: provenanceSchema,
  retry_errors: z.boolean(),
  /** Episodes this attempt set out to play, and how many of them it finished. */
  to_play: count,
  played: count,
  requests: count,
  retries_by_cause: z.record(z.string(), count),
  /** A worker-pool attempt: the Redis its episodes were queued in (no credentials) and the run's id there. */
  queue: z.object({ redis: z.string(), run_id: z.string() }).optional(),
  /** In a merged run: the shard (`i/n (folder)`) it comes from. */
  shard: z.string().optional(),
  /** Scorecard opens whose answer was lost: each may have left an empty card open on the service. */
  unconfirmed_card_opens: count.default(0),
  /** Fields arcbench uses that the service's answers left out (each was warned about in run.log). */
  service_missing_fields: z.array(z.string()).default([]),
});
export type AttemptEntry = z.infer<typeof attemptSchema>;

/**
 * Everything that decides which episodes a run plays and how each one goes, and its hash. A resume
 * whose experiment gives another fingerprint would mix two experiments' episodes and is refused.
 */
export const planFingerprintSchema = z.looseObject({
  hash: z.string(),
  seed: z.number(),
  episodes: count,
  /** Full draws of the plan (runner/plan.ts); absent means 1. */
  repeats: count.optional(),
  /** The per-episode budgets; run_seconds is not among them (it decides when a run stops, not what an episode is). */
  budgets: z.record(z.string(), z.unknown()),
  agents: z.array(z.looseObject({ label: z.string(), use: z.string(), params: z.unknown() })),
  games: z.array(z.string()),
});
export type PlanFingerprint = z.infer<typeof planFingerprintSchema>;

const runTotalsSchema = z.looseObject({
  planned_episodes: count,
  /** Planned episodes with a record (each counted once, whatever attempt played it). */
  episodes: count,
  /** Planned episodes without a record: never started (run stopped early, or died). */
  skipped_episodes: count,
  /** Recorded episodes the run's own stop (interrupt, run_seconds) cut short; a resume plays them again. */
  cut_episodes: count,
  /** Old records kept in episodes.jsonl but replaced by a later attempt (retry-errors, cut short). */
  superseded_episodes: count,
  errors: count,
  close_errors: count,
  /** Counted actions of the episodes, as the service counts them (answers_lost included). */
  actions: count,
  /** Actions that reached the service but whose answer was lost (out of step): counted in `actions`. */
  answers_lost: count.default(0),
  requests: count,
  retries: count,
  retries_by_cause: z.record(z.string(), count),
  /** Scorecard opens whose answer was lost: each may have left an empty card open on the service. */
  unconfirmed_card_opens: count.default(0),
  /** Fields arcbench uses that the service's answers left out (each was warned about in run.log). */
  service_missing_fields: z.array(z.string()).default([]),
  wall_seconds: z.number().min(0),
  outcomes: z.record(z.string(), count),
  /** Worker pool: episodes played again from a new RESET after the worker playing them was lost (their records name the lost attempts). */
  replayed_after_worker_loss: count.optional(),
  /** Model usage of the whole run. */
  usage: usageOrNone,
});

const intervalSchema = z.object({ low: z.number(), high: z.number() });

/** Which resampling an interval of the table used (resultsTable.ts says it under every table). */
export const INTERVAL_METHODS = ['episode-bootstrap', 'cluster-bootstrap'] as const;
export type IntervalMethod = (typeof INTERVAL_METHODS)[number];

const repeatSpreadSchema = z.object({
  repeats: count,
  scores: z.array(z.number()),
  mean: z.number(),
  sd: z.number().nullable(),
  min: z.number(),
  max: z.number(),
});

/** A row of the results table (resultsTable.ts): per agent and game, and per agent a "total". */
export const tableRowSchema = z.looseObject({
  agent: z.string(),
  /** A game id, or "total". */
  game: z.string(),
  episodes: count,
  /** The card's score scored locally: per game the best run's, in total the mean over games; null when unknown (baselines). */
  card_score: z.number().nullable(),
  /** The service's own score: per game its environment's on the agent's cards (the best, over several), in total their mean; null without. */
  service_score: z.number().nullable().optional(),
  /** Mean of the episodes' own scores (in total: the mean over games of the game means); null when unknown. */
  mean_score: z.number().nullable(),
  /** 95% interval of mean_score (see interval_method); null below 2 episodes (in total: below 2 games, or 2 episodes of its one game). */
  interval: intervalSchema.nullable(),
  levels_completed: count,
  level_count: count,
  actions: count,
  wins: count,
  errors: count,
  /** False when the game's level baselines are unknown (in total: any game's): the scores are not computed. */
  baselines_known: z.boolean().optional(),
  /** Model usage of the row's episodes; absent in runs of versions before it was kept. */
  usage: usageOrNone,
  /** What `interval` resamples: the game's episodes (game rows, and a total of one game), or whole games (totals). Absent in older runs. */
  interval_method: z.enum(INTERVAL_METHODS).optional(),
  /** The score of each repeat (the mean over its games of their means) and their spread; null when an episode of the row has no result. */
  repeat_spread: repeatSpreadSchema.nullable().optional(),
  /** Episodes the plan declared for the row, and those of them with no result (named `game rR eE`). */
  planned_episodes: count.optional(),
  missing_episodes: z.array(z.string()).optional(),
  /** Per level, how many of the row's episodes completed it (per-game rows). */
  level_solves: z.array(count).optional(),
  /** Per level, the mean actions spent on it by the episodes that completed it; null where none did (per-game rows). */
  level_actions: z.array(z.number().nullable()).optional(),
  /** Per level, the mean wall seconds spent on it by the episodes that completed it; absent when records predate level times. */
  level_seconds: z.array(z.number().nullable()).optional(),
  /** Counted actions ÷ the summed human baselines of the same episodes' games; null when baselines are unknown. */
  baseline_share: z.number().nullable().optional(),
  /** Model dollars per level completed (summed over episodes); null when unknown or no level was completed. */
  cost_per_level: z.number().nullable().optional(),
});
export type TableRow = z.infer<typeof tableRowSchema>;

const shardSchema = z.object({ index: count, count: z.int().min(1) });

export const runReportSchema = z.looseObject({
  format: z.literal(RUN_FORMAT),
  name: z.string(),
  status: z.enum(RUN_STATUSES),
  /** Why the run could not start (the key refused, the service out of reach, no card opened). */
  failure: z.string().optional(),
  /** When the first attempt started, and when the latest ended (null while it runs). */
  started_at: z.string(),
  finished_at: z.string().nullable(),
  config_file: z.string(),
  config: z.unknown(),
  /**
   * Command-line overrides of the first attempt (see config/overrides.ts); a resume applies them again.
   * `base_dir`: where a config-less run's (`arcbench run --agent …`) plugin paths start from.
   */
  overrides: z.object({
    seed: z.number().optional(),
    concurrency: z.number().optional(),
    games: z.array(z.string()).readonly().optional(),
    episodes: z.number().optional(),
    max_actions: z.number().optional(),
    agents: z.array(z.string()).readonly().optional(),
    base_dir: z.string().optional(),
  }),
  /** The first attempt's provenance; each attempt has its own in `attempts`. */
  provenance: provenanceSchema,
  plan: planFingerprintSchema.extend({ planned_episodes: count }),
  games: z.array(z.string()),
  /** Games whose level baselines the service gave nowhere: their local scores are not computed (null). */
  games_without_baselines: z.array(z.string()).default([]),
  /** Why some scores are null, said once; absent when every score is known. */
  unknown_scores: z.string().optional(),
  agents: z.array(agentResultSchema),
  cards: z.array(cardEntrySchema),
  attempts: z.array(attemptSchema).min(1),
  totals: runTotalsSchema,
  /** The results table; absent in runs of versions before it was kept here. */
  table: z.array(tableRowSchema).optional(),
  /**
   * Main effects of each factor and the score-against-cost frontier across arms (src/analysis/factorialSummary.ts),
   * written with the table at the end of a run that has factorial arms; readers may recompute it from the episodes.
   */
  factorial: z.object({ designs: z.array(z.unknown()).readonly(), frontier: z.unknown() }).optional(),
  /** What produced the scores beyond the model (harnessCard.ts); absent in runs of versions before it was kept. */
  harness_card: harnessCardSchema.optional(),
  /** Set when the run plays one part of the plan (`--shard index/count`); a resume plays the same part. */
  shard: shardSchema.optional(),
  /** A merged run (`arcbench merge`): the folders it was made from. */
  merged_from: z.array(z.object({ folder: z.string(), shard: shardSchema.nullable(), status: z.enum(RUN_STATUSES), episodes: count })).optional(),
});
export type RunReport = z.infer<typeof runReportSchema>;

/**
 * A run folder that cannot be used as asked: unreadable or damaged (`RUN_FOLDER_INVALID`), already
 * holding a run (`RUN_FOLDER_IN_USE`), still written by a live process (`RUN_FOLDER_BUSY`), or whose
 * experiment changed since it started (`RUN_FOLDER_CONFIG_CHANGED`). The CLI exits 2 on it.
 */
export class RunFolderError extends ArcbenchError {
  constructor(message: string, code: 'RUN_FOLDER_INVALID' | 'RUN_FOLDER_IN_USE' | 'RUN_FOLDER_BUSY' | 'RUN_FOLDER_CONFIG_CHANGED' = 'RUN_FOLDER_INVALID') {
    super(code, message);
  }
}

/**
 * How deep run.json is indented: a scorecard's run entries (cards[].scorecard.environments[].runs[],
 * 7 levels down) and anything as deep go on one line each, one line per episode's run.
 */
const RUN_JSON_ONE_LINE_DEPTH = 7;

/**
 * Writes run.json atomically: a temp file renamed over the old one, so a run killed mid-write leaves
 * the previous run.json whole, never half of a new one.
 */
export function writeRunReport(runDir: string, report: RunReport): void {
  const path = join(runDir, RUN_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${indentedJson(report, RUN_JSON_ONE_LINE_DEPTH)}\n`);
    renameSync(temp, path);
  } catch (cause) {
    rmSync(temp, { force: true });
    throw new RunFolderWriteError(`cannot write ${path}: ${(cause as Error).message}`, { cause });
  }
}

/** Reads and checks a run folder's run.json; a sentence names what is wrong. */
export function readRunReport(runDir: string): RunReport {
  const path = join(runDir, RUN_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RunFolderError(
      `${path}: cannot read run.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); is ${runDir} a run folder?`,
    );
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (typeof format === 'string' && format !== RUN_FORMAT) {
    throw new RunFolderError(
      `${path}: written in layout ${format}, this arcbench reads ${RUN_FORMAT}; read or resume it with the arcbench version that wrote it`,
    );
  }
  const parsed = runReportSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) throw new RunFolderError(`${path}: not a run.json of this arcbench:\n${issueLines(parsed.error.issues).join('\n')}`);
  return parsed.data;
}
