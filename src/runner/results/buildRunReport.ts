/** Assembles run.json from what a run produced: its episodes, its cards as closed, and the transport's counts. */
import type { EpisodeOutcome } from '../../agent/contract.ts';
import type { Experiment } from '../config/loader.ts';
import { configWithoutSecrets } from '../config/loader.ts';
import type { EpisodeRecord } from '../episode/episodeRecord.ts';
import type { Plan } from '../plan.ts';
import type { ScheduleOutcome } from '../scheduler.ts';
import { scorecardPage } from '../scorecards.ts';
import { gamesWithoutBaselines, scoreDifferences, scoreEpisodes } from './localScoring.ts';
import { type AgentResult, type Provenance, RUN_FORMAT, type RunReport, type RunStatus } from './runReport.ts';

export interface FinishedRun {
  readonly experiment: Experiment;
  readonly plan: Plan;
  readonly outcome: ScheduleOutcome;
  readonly episodes: readonly EpisodeRecord[];
  readonly provenance: Provenance;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly interrupted: boolean;
  /** Why the run could not start, when it could not. */
  readonly failure?: string;
}

function agentResults(run: FinishedRun): AgentResult[] {
  const { experiment, outcome, episodes } = run;
  const competition = experiment.config.scorecard.competition_mode;
  return experiment.agents.map((agent) => {
    const mine = episodes.filter((e) => e.agent === agent.label);
    // A competition card scores every game the service offers that no session played, 0 at close.
    const unplayed = competition ? run.plan.offered.filter((game) => !mine.some((e) => e.game_id === game.game_id && e.runs.length > 0)) : [];
    const local = scoreEpisodes(mine, unplayed);
    const withoutBaselines = new Set([...gamesWithoutBaselines(mine), ...unplayed.filter((g) => g.baseline_actions === undefined).map((g) => g.game_id)]);
    const close = outcome.closed.get(agent.label) ?? { scorecard: null, error: 'never opened' };
    return {
      label: agent.label,
      use: agent.use,
      agent: agent.definition.name,
      params: agent.params,
      card_id: outcome.cards.get(agent.label) ?? '',
      scorecard_url: scorecardPage(outcome.pageRoot, outcome.cards.get(agent.label) ?? ''),
      scorecard: close.scorecard,
      close_error: close.error,
      local_score: local,
      score_differences: close.scorecard ? scoreDifferences(local, close.scorecard, withoutBaselines) : null,
    };
  });
}

function runStatus(interrupted: boolean, errors: number, closeErrors: number, failed: boolean): RunStatus {
  if (failed) return 'failed';
  if (interrupted) return 'interrupted';
  return errors > 0 || closeErrors > 0 ? 'failed' : 'completed';
}

/** run.json's content; every value taken from the environment, and every key-named field, redacted. */
export function buildRunReport(run: FinishedRun): RunReport {
  const { experiment, plan, outcome, episodes } = run;
  const agents = agentResults(run);
  const errors = episodes.filter((e) => e.outcome === 'error').length;
  const closeErrors = agents.filter((a) => a.close_error !== null).length;
  const outcomes: Partial<Record<EpisodeOutcome, number>> = {};
  for (const e of episodes) outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
  const retries = outcome.stats.retries;
  const report: RunReport = {
    format: RUN_FORMAT,
    name: experiment.config.name,
    status: runStatus(run.interrupted, errors, closeErrors, run.failure !== undefined),
    ...(run.failure === undefined ? {} : { failure: run.failure }),
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt.toISOString(),
    config_file: experiment.file,
    config: configWithoutSecrets(experiment.config, experiment.redactor),
    provenance: run.provenance,
    games: plan.games.map((g) => g.game_id),
    games_without_baselines: gamesWithoutBaselines(episodes),
    agents,
    totals: {
      planned_episodes: plan.episodes.length,
      episodes: episodes.length,
      skipped_episodes: plan.episodes.length - episodes.length,
      errors,
      close_errors: closeErrors,
      actions: episodes.reduce((sum, e) => sum + e.actions, 0),
      requests: outcome.stats.requests,
      retries: Object.values(retries).reduce((a, b) => a + b, 0),
      retries_by_cause: retries,
      unconfirmed_card_opens: outcome.stats.unconfirmedOpens,
      service_missing_fields: outcome.stats.missingFields,
      wall_seconds: (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000,
      outcomes,
    },
  };
  // Agents' params, close errors, the service's own echo of the card's opaque value: anywhere.
  return experiment.redactor.value(report) as RunReport;
}
