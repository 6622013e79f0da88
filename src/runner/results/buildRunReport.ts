/**
 * Assembles run.json from the state of a run folder: the plan, the episodes of every attempt (each
 * planned episode counted once), every card of every attempt, and the attempts themselves. The same
 * builder makes the report an attempt starts with (status `running`) and the one it ends with.
 */
import type { EpisodeOutcome } from '../../agent/contract.ts';
import { sumUsage, type UsageTotals } from '../../agent/usage.ts';
import type { Experiment } from '../config/loader.ts';
import { configWithoutSecrets } from '../config/loader.ts';
import { redactSecretFields } from '../../redaction.ts';
import type { GameDescriptor } from '../../protocol/index.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { Plan } from '../plan.ts';
import type { ScoredCard } from '../../reference/scoring.ts';
import { scorecardPage } from '../scorecards.ts';
import { gameWithClosedCardBaselines } from '../../runfolder/cardBaselines.ts';
import { buildHarnessCard } from '../harnessCard.ts';
import { gamesWithoutBaselines, localScoreOf, scoreDifferences, scoreEpisodes, UNKNOWN_SCORES_REASON } from '../../analysis/localScoring.ts';
import {
  type AgentResult,
  type AttemptEntry,
  type CardEntry,
  type PlanFingerprint,
  type Provenance,
  RUN_FORMAT,
  type RunReport,
  type RunStatus,
} from '../../runfolder/runReport.ts';

/** What the runner holds in memory about a run when it writes run.json (buildRunReport turns it into the report). */
export interface RunReportInput {
  readonly experiment: Experiment;
  readonly plan: Plan;
  readonly fingerprint: PlanFingerprint & { planned_episodes: number };
  /** The current record of every planned episode that has one, whatever attempt played it. */
  readonly episodes: readonly EpisodeRecord[];
  /** Older records a later attempt replaced; their cards counted them, so card comparisons need them. */
  readonly superseded: readonly EpisodeRecord[];
  readonly cards: readonly CardEntry[];
  readonly attempts: readonly AttemptEntry[];
  readonly overrides: RunReport['overrides'];
  /** The first attempt's. */
  readonly provenance: Provenance;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** The status, or how to decide it from the totals (which say what is left to play). */
  readonly status: RunStatus | ((totals: RunReport['totals']) => RunStatus);
  /** Root of the service's scorecard pages, when the target has one. */
  readonly pageRoot?: string | undefined;
  /** Why the run could not start, when it could not. */
  readonly failure?: string | undefined;
}

/**
 * An agent's episodes (on one card, or all of them) scored as the service scores its card: in
 * competition mode every game the service offers that no session played enters with 0 at close. The
 * games whose scores cannot be computed here (baselines unknown) come with it, for the comparison.
 */
function scoredAsTheCard(run: RunReportInput, episodes: readonly EpisodeRecord[]): { local: ScoredCard; withoutBaselines: Set<string> } {
  const unplayed: GameDescriptor[] = run.experiment.config.scorecard.competition_mode
    ? (run.plan.offered ?? run.plan.games)
        .filter((game) => !episodes.some((e) => e.game_id === game.game_id && e.runs.length > 0))
        .map((game) => gameWithClosedCardBaselines(game, episodes[0]?.agent, run.cards))
    : [];
  const withoutBaselines = new Set([...gamesWithoutBaselines(episodes), ...unplayed.filter((g) => g.baseline_actions === undefined).map((g) => g.game_id)]);
  return { local: scoreEpisodes(episodes, unplayed), withoutBaselines };
}

type CardScorer = (episodes: readonly EpisodeRecord[]) => ReturnType<typeof scoredAsTheCard>;

/**
 * scoredAsTheCard, remembering the lists it scored: in the usual run an agent has one card, which holds
 * exactly the agent's episodes, and that list is scored once, not twice (scoring 2,000 episodes took
 * 7–10 ms of the end of a run).
 */
function rememberingScorer(run: RunReportInput): CardScorer {
  const scored: { episodes: readonly EpisodeRecord[]; result: ReturnType<typeof scoredAsTheCard> }[] = [];
  return (episodes) => {
    const known = scored.find((entry) => entry.episodes.length === episodes.length && entry.episodes.every((e, i) => e === episodes[i]));
    if (known !== undefined) return known.result;
    const result = scoredAsTheCard(run, episodes);
    scored.push({ episodes, result });
    return result;
  };
}

/** Usage of these episodes, in all and per game. */
function usageOf(episodes: readonly EpisodeRecord[]): { usage: UsageTotals; usage_by_game: Record<string, UsageTotals> } {
  const byGame = new Map<string, UsageTotals[]>();
  for (const episode of episodes) {
    const list = byGame.get(episode.game_id);
    if (list === undefined) byGame.set(episode.game_id, [episode.usage]);
    else list.push(episode.usage);
  }
  const usage_by_game = Object.fromEntries([...byGame].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([game, parts]) => [game, sumUsage(parts)]));
  return { usage: sumUsage(episodes.map((e) => e.usage)), usage_by_game };
}

/** Each card with where it and the local score of the episodes played on it differ (closed cards only). */
function cardsWithDifferences(run: RunReportInput, score: CardScorer): CardEntry[] {
  const byCard = new Map<string, EpisodeRecord[]>();
  for (const record of [...run.superseded, ...run.episodes]) {
    const list = byCard.get(record.card_id);
    if (list === undefined) byCard.set(record.card_id, [record]);
    else list.push(record);
  }
  return run.cards.map((card) => {
    const { local, withoutBaselines } = score(byCard.get(card.card_id) ?? []);
    return { ...card, score_differences: card.scorecard ? scoreDifferences(local, card.scorecard, withoutBaselines) : null };
  });
}

function agentResults(run: RunReportInput, cards: readonly CardEntry[], score: CardScorer): AgentResult[] {
  const { experiment, episodes } = run;
  return experiment.agents.map((agent) => {
    const mine = episodes.filter((e) => e.agent === agent.label);
    const latest = cards.findLast((card) => card.agent === agent.label);
    const scored = score(mine);
    return {
      label: agent.label,
      use: agent.use,
      agent: agent.definition.name,
      params: redactSecretFields(agent.params),
      card_id: latest?.card_id ?? '',
      scorecard_url: scorecardPage(run.pageRoot, latest?.card_id ?? ''),
      scorecard: latest?.scorecard ?? null,
      close_error: latest === undefined ? 'never opened' : latest.close_error,
      local_score: localScoreOf(scored.local, scored.withoutBaselines),
      score_differences: latest?.score_differences ?? null,
      ...usageOf(mine),
      ...(agent.arm === undefined ? {} : { arm: { of: agent.arm.of, levels: { ...agent.arm.levels } } }),
    };
  });
}

function attemptSeconds(attempt: AttemptEntry): number {
  return attempt.finished_at === null ? 0 : (Date.parse(attempt.finished_at) - Date.parse(attempt.started_at)) / 1000;
}

function totals(run: RunReportInput, cards: readonly CardEntry[]): RunReport['totals'] {
  const { episodes } = run;
  const outcomes: Partial<Record<EpisodeOutcome, number>> = {};
  for (const e of episodes) outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
  const retries: Record<string, number> = {};
  for (const attempt of run.attempts) {
    for (const [cause, n] of Object.entries(attempt.retries_by_cause)) retries[cause] = (retries[cause] ?? 0) + n;
  }
  return {
    planned_episodes: run.plan.episodes.length,
    episodes: episodes.length,
    skipped_episodes: run.plan.episodes.length - episodes.length,
    cut_episodes: episodes.filter((e) => e.cut_by_run_stop === true).length,
    superseded_episodes: run.superseded.length,
    errors: episodes.filter((e) => e.outcome === 'error').length,
    close_errors: cards.filter((c) => c.state === 'close_failed').length,
    actions: episodes.reduce((sum, e) => sum + e.actions, 0),
    answers_lost: episodes.reduce((sum, e) => sum + (e.answers_lost ?? 0), 0),
    requests: run.attempts.reduce((sum, a) => sum + a.requests, 0),
    retries: Object.values(retries).reduce((a, b) => a + b, 0),
    retries_by_cause: retries,
    unconfirmed_card_opens: run.attempts.reduce((sum, a) => sum + a.unconfirmed_card_opens, 0),
    service_missing_fields: [...new Set(run.attempts.flatMap((a) => a.service_missing_fields))],
    wall_seconds: run.attempts.reduce((sum, a) => sum + attemptSeconds(a), 0),
    outcomes,
    replayed_after_worker_loss: episodes.filter((e) => (e.lost_attempts?.length ?? 0) > 0).length,
    usage: sumUsage(episodes.map((e) => e.usage)),
  };
}

/** run.json's content; every value taken from the environment, and every key-named field, redacted. */
export function buildRunReport(run: RunReportInput): RunReport {
  const { experiment, plan } = run;
  const score = rememberingScorer(run);
  const cards = cardsWithDifferences(run, score);
  const sums = totals(run, cards);
  const withoutBaselines = gamesWithoutBaselines(run.episodes);
  const report: RunReport = {
    format: RUN_FORMAT,
    name: experiment.config.name,
    status: typeof run.status === 'function' ? run.status(sums) : run.status,
    ...(run.failure === undefined ? {} : { failure: run.failure }),
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    config_file: experiment.file,
    config: configWithoutSecrets(experiment.config, experiment.redactor),
    overrides: run.overrides,
    provenance: run.provenance,
    plan: run.fingerprint,
    games: plan.games.map((g) => g.game_id),
    games_without_baselines: withoutBaselines,
    ...(withoutBaselines.length === 0 ? {} : { unknown_scores: UNKNOWN_SCORES_REASON }),
    agents: agentResults(run, cards, score),
    cards,
    attempts: [...run.attempts],
    totals: sums,
    harness_card: buildHarnessCard(experiment, run.provenance.arcbench_version),
    ...(plan.shard === undefined ? {} : { shard: { ...plan.shard } }),
  };
  // Agents' params and error messages, the service's echo of the card's opaque value: anywhere.
  return experiment.redactor.value(report) as RunReport;
}
