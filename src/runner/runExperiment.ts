/**
 * Runs an experiment end to end: open the target, lay out the episodes, open one scorecard per agent,
 * play the episodes on a p-queue, then close every card (always, also when interrupted), score the
 * episodes locally with the service's scoring code and write the results folder.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { TransportStats } from '../client/transport.ts';
import type { ScorecardAnswer } from '../protocol/index.ts';
import type { ScoredCard } from '../reference/scoring.ts';
import type { EpisodeOutcome } from './agentApi.ts';
import { configWithoutSecrets, type Experiment } from './configLoader.ts';
import { type EpisodeRecord, runEpisode } from './episode.ts';
import { EpisodeLog } from './episodeLog.ts';
import { scoreDifferences, scoreEpisodes } from './localScoring.ts';
import { resolvePlan } from './plan.ts';
import { type ProgressDisplay, silentProgress } from './progress.ts';
import { collectProvenance, type Provenance } from './provenance.ts';
import { renderMarkdownTable, renderTerminalTable, tableRows } from './resultsTable.ts';
import { createRunDirectory } from './runDirectory.ts';
import { createRunLogger } from './runLogger.ts';
import { openTarget } from './targets.ts';

/** Progress hears of every this-many actions (and of every finished episode). */
const PROGRESS_EVERY_ACTIONS = 64;

/** Version of run.json's layout; bumped when a field changes meaning. */
export const RUN_FORMAT = 'arcbench.run/1';

export type RunStatus = 'completed' | 'failed' | 'interrupted';

export interface AgentResult {
  label: string;
  use: string;
  agent: string;
  params: unknown;
  card_id: string;
  /** The scorecard as the service returned it on close; null when closing failed. */
  scorecard: ScorecardAnswer | null;
  close_error: string | null;
  /** The same card scored here from episodes.jsonl with the service's scoring code. */
  local_score: ScoredCard;
  /** Where local and service scores differ (empty: they agree); null without a closed card. */
  score_differences: string[] | null;
}

export interface RunReport {
  format: typeof RUN_FORMAT;
  name: string;
  status: RunStatus;
  started_at: string;
  finished_at: string;
  config_file: string;
  config: unknown;
  provenance: Provenance;
  games: string[];
  agents: AgentResult[];
  totals: {
    planned_episodes: number;
    episodes: number;
    skipped_episodes: number;
    errors: number;
    close_errors: number;
    actions: number;
    requests: number;
    retries: number;
    retries_by_cause: Record<string, number>;
    wall_seconds: number;
    outcomes: Partial<Record<EpisodeOutcome, number>>;
  };
}

export interface RunOptions {
  /** Results folder; default `<config.output>/<timestamp>-<name>/`. */
  out?: string;
  /** Abort to interrupt: no new episode starts, in-flight ones stop at their next step, cards close. */
  signal?: AbortSignal;
  /** Also log plain lines to stderr (CI); run.log is always written. */
  consoleLog?: boolean;
  progress?: ProgressDisplay;
}

export interface RunResult {
  runDir: string;
  report: RunReport;
  episodes: EpisodeRecord[];
  /** The results table, drawn for a terminal. */
  table: string;
}

export async function runExperiment(experiment: Experiment, options: RunOptions = {}): Promise<RunResult> {
  const { config } = experiment;
  const startedAt = new Date();
  const progress = options.progress ?? silentProgress;
  const target = await openTarget(config);
  let plan;
  try {
    plan = await resolvePlan(experiment, target.transport);
  } catch (error) {
    await target.close();
    throw error;
  }

  const runDir = createRunDirectory({ out: options.out, output: config.output, name: config.name, at: startedAt, recordings: config.recordings });
  const logger = createRunLogger(join(runDir, 'run.log'), { console: options.consoleLog ?? false });
  // The line of every finished episode holds only names and counts built here, never a key; without
  // pino's redaction pass it costs a fifth as much (that pass was a twentieth of an in-process run).
  const episodeLines = logger.child({}, { redact: [] });
  const provenance = collectProvenance(config.seed, target.description);
  logger.info({ name: config.name, target: target.description, episodes: plan.episodes.length, games: plan.games.length, provenance }, 'run started');

  const episodeLog = new EpisodeLog(join(runDir, 'episodes.jsonl'));
  const episodes: EpisodeRecord[] = [];
  const cards = new Map<string, string>();
  const closed = new Map<string, { scorecard: ScorecardAnswer | null; error: string | null }>();

  // One controller stops the episodes, for either reason; `stopReason` tells them which.
  const stopper = new AbortController();
  let stopReason: EpisodeOutcome = 'cancelled';
  const interrupt = () => {
    stopReason = 'cancelled';
    stopper.abort();
  };
  if (options.signal?.aborted) interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  const runTimer =
    config.budgets.run_seconds === undefined
      ? undefined
      : setTimeout(() => {
          stopReason = 'time';
          stopper.abort();
          logger.warn({ run_seconds: config.budgets.run_seconds }, 'run wall time spent: no new episodes; in-flight episodes stop at their next step');
        }, config.budgets.run_seconds * 1000);

  let actionsSeen = 0;
  // Counted as episodes end: filtering every episode on every action made a long run quadratic.
  let episodeErrors = 0;
  let lastStats: TransportStats = { requests: 0, retries: {}, unconfirmedOpens: 0, missingFields: [] };
  const retriesNow = () => Object.values(target.transport.stats().retries).reduce((a, b) => a + b, 0);
  const snapshot = () => ({
    done: episodes.length,
    total: plan.episodes.length,
    actions: actionsSeen,
    retries: retriesNow(),
    errors: episodeErrors,
  });

  try {
    for (const agent of experiment.agents) {
      const tags = [...new Set([...config.scorecard.tags, 'agent', agent.label])];
      const cardId = await target.transport.openScorecard({
        tags,
        ...(config.scorecard.source_url === undefined ? {} : { source_url: config.scorecard.source_url }),
        ...(config.scorecard.opaque === undefined ? {} : { opaque: config.scorecard.opaque }),
      });
      cards.set(agent.label, cardId);
      logger.info({ agent: agent.label, card_id: cardId, tags }, 'scorecard opened');
    }

    const queue = new PQueue({ concurrency: config.concurrency });
    let runSequence = 0;
    stopper.signal.addEventListener('abort', () => queue.clear(), { once: true });
    for (const spec of plan.episodes) {
      void queue.add(async () => {
        if (stopper.signal.aborted) return;
        const record = await runEpisode(spec, {
          transport: target.transport,
          cardId: cards.get(spec.agent.label)!,
          budgets: config.budgets,
          recordingsDir: config.recordings ? join(runDir, 'recordings') : undefined,
          signal: stopper.signal,
          abortOutcome: () => stopReason,
          baseDir: experiment.baseDir,
          nextRunSequence: () => runSequence++,
          onAction: () => {
            // The live line is redrawn every 100 ms at most; a snapshot per action cost more than the action.
            if (++actionsSeen % PROGRESS_EVERY_ACTIONS === 0) progress.update(snapshot());
          },
        });
        if (record.outcome === 'error') episodeErrors++;
        episodes.push(record);
        episodeLog.append(record);
        progress.update(snapshot());
        const fields = { agent: record.agent, game: record.game_id, episode: record.episode, outcome: record.outcome, actions: record.actions, levels: record.levels_completed };
        if (record.outcome === 'error') logger.error({ ...fields, error: record.error }, 'episode failed');
        else episodeLines.info(fields, 'episode finished');
      });
    }
    await queue.onIdle();
  } finally {
    if (runTimer) clearTimeout(runTimer);
    options.signal?.removeEventListener('abort', interrupt);
    progress.stop();
    episodeLog.close();
    // Every opened card is closed, whatever happened above: an open card keeps sessions alive remotely.
    for (const [label, cardId] of cards) {
      try {
        const scorecard = await target.transport.closeScorecard(cardId);
        closed.set(label, { scorecard, error: null });
        logger.info({ agent: label, card_id: cardId, score: scorecard.score }, 'scorecard closed');
      } catch (error) {
        closed.set(label, { scorecard: null, error: (error as Error).message });
        logger.error({ agent: label, card_id: cardId, error: (error as Error).message }, 'closing the scorecard failed');
      }
    }
    const stats = target.transport.stats();
    await target.close().catch((error: unknown) => logger.warn({ error: (error as Error).message }, 'closing the target failed'));
    lastStats = stats;
  }

  const agents: AgentResult[] = experiment.agents.map((agent) => {
    const local = scoreEpisodes(episodes.filter((e) => e.agent === agent.label));
    const close = closed.get(agent.label) ?? { scorecard: null, error: 'never opened' };
    return {
      label: agent.label,
      use: agent.use,
      agent: agent.definition.name,
      params: agent.params,
      card_id: cards.get(agent.label) ?? '',
      scorecard: close.scorecard,
      close_error: close.error,
      local_score: local,
      score_differences: close.scorecard ? scoreDifferences(local, close.scorecard) : null,
    };
  });
  for (const agent of agents) {
    if (agent.score_differences && agent.score_differences.length > 0) {
      logger.warn({ agent: agent.label, differences: agent.score_differences }, 'local score and the service scorecard differ');
    }
  }

  const errors = episodes.filter((e) => e.outcome === 'error').length;
  const closeErrors = agents.filter((a) => a.close_error !== null).length;
  const interrupted = options.signal?.aborted === true;
  const outcomes: Partial<Record<EpisodeOutcome, number>> = {};
  for (const e of episodes) outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
  const finishedAt = new Date();
  const report: RunReport = {
    format: RUN_FORMAT,
    name: config.name,
    status: interrupted ? 'interrupted' : errors > 0 || closeErrors > 0 ? 'failed' : 'completed',
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    config_file: experiment.file,
    config: configWithoutSecrets(config),
    provenance,
    games: plan.games.map((g) => g.game_id),
    agents,
    totals: {
      planned_episodes: plan.episodes.length,
      episodes: episodes.length,
      skipped_episodes: plan.episodes.length - episodes.length,
      errors,
      close_errors: closeErrors,
      actions: episodes.reduce((sum, e) => sum + e.actions, 0),
      requests: lastStats.requests,
      retries: Object.values(lastStats.retries).reduce((a, b) => a + b, 0),
      retries_by_cause: lastStats.retries,
      wall_seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      outcomes,
    },
  };
  writeFileSync(join(runDir, 'run.json'), JSON.stringify(report, null, 2) + '\n');
  const rows = tableRows(experiment.agents.map((a) => a.label), episodes);
  writeFileSync(join(runDir, 'table.md'), `# ${config.name}\n\n${renderMarkdownTable(rows)}`);
  logger.info({ status: report.status, totals: report.totals }, 'run finished');
  logger.flush();
  return { runDir, report, episodes, table: renderTerminalTable(rows) };
}
