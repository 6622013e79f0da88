/**
 * Plays a plan: opens one scorecard per agent, runs the episodes on a p-queue at the experiment's
 * concurrency, and closes every card and the target afterwards, also when interrupted or failing.
 * That is the default `Scheduler`; the runner takes another as a parameter (the CLI passes the worker
 * pool's for `--queue`), so it never loads the pool itself.
 */
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { TransportError, TransportStats } from '../client/transport.ts';
import type { ApiError } from '../protocol/index.ts';
import type { Experiment } from './config/loader.ts';
import { baselineNotices, GameBaselines } from '../episode/gameBaselines.ts';
import { FinishingEpisodes } from './finishingEpisodes.ts';
import { EpisodeSetupBuilder, episodeConfigOf } from '../episode/episodeSetup.ts';
import { playEpisode } from '../episode/runEpisode.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { keyOfSpec } from '../runfolder/episodeKey.ts';
import type { ContinuationPlan } from './resume/continuations.ts';
import type { Plan } from './plan.ts';
import type { PlanFingerprint, RunReport } from '../runfolder/runReport.ts';
import type { RunRecorder } from './results/runRecorder.ts';
import { isServiceFailure } from './runNotStarted.ts';
import { RunSpend } from './runSpend.ts';
import type { RunStop } from './runStop.ts';
import { type CardEvents, type ClosedCard, closeCards, openCards } from './scorecards.ts';
import { type OpenTarget, sessionsEndWithProcess } from './targets.ts';
import { type HeartbeatTiming, startHeartbeat } from './heartbeat.ts';
import { DecisionWatch } from '../episode/decisionWatch.ts';

export interface ScheduledRun {
  readonly experiment: Experiment;
  readonly plan: Plan;
  readonly target: OpenTarget;
  readonly runDir: string;
  readonly recorder: RunRecorder;
  readonly stop: RunStop;
  readonly logger: Logger;
  /** Told of each card as it opens and closes (run.json is rewritten on each). */
  readonly cardEvents?: CardEvents;
  /** The number of this attempt's first run: a resume goes on after the runs of earlier attempts. */
  readonly firstRunSequence?: number;
  /** The command line's overrides: a worker pool applies them to the experiment as this process did. */
  readonly overrides: RunReport['overrides'];
  /** The plan's fingerprint, which a worker pool checks its copy of the experiment against. */
  readonly fingerprint: PlanFingerprint;
  /** The attempt's number (1 for a fresh run), for the episodes' checkpoints. */
  readonly attempt?: number;
  /** A resume's: episodes continued from their checkpoints, on the cards it takes over. */
  readonly continuations?: ContinuationPlan;
  /** How often the heartbeat reports decisions that take long (heartbeat.ts; tests shorten it). */
  readonly heartbeat?: HeartbeatTiming;
  /** Where agent processes' own output goes live (`run --agent-output`). */
  readonly agentOutput?: (line: string) => void;
}

/**
 * What plays a run's scheduled episodes and closes its cards and target: `schedule` below does it in
 * this process; the worker pool's (`queueScheduler`) has workers elsewhere do it.
 */
export type Scheduler = ((run: ScheduledRun) => Promise<ScheduleOutcome>) & {
  /** Plays `run.continuations` (episodes continued from their checkpoints, on the cards taken over, which it closes); else a resume continues none. */
  readonly continuesSessions?: boolean;
};

export interface ScheduleOutcome {
  /** Card id per agent label, for every card that was opened. */
  readonly cards: ReadonlyMap<string, string>;
  /** Root of the service's scorecard pages, when the target has one. */
  readonly pageRoot: string | undefined;
  /** Why no episode was played: opening a card failed (the service's or the network's error). */
  readonly openFailure?: ApiError | TransportError;
  readonly closed: ReadonlyMap<string, ClosedCard>;
  readonly stats: TransportStats;
  /** A worker-pool run: the Redis (without credentials) and the run's id there. */
  readonly queue?: { readonly redis: string; readonly run_id: string };
  /** True when the run's dollar budget stopped the scheduling of new episodes. */
  readonly costStopped: boolean;
}

export async function schedule(run: ScheduledRun): Promise<ScheduleOutcome> {
  const { experiment, target, logger } = run;
  const cards = new Map<string, string>();
  const queue = new PQueue({ concurrency: experiment.config.concurrency });
  const spend = new RunSpend(experiment.config.budgets.max_run_cost_usd, logger, () => queue.clear());
  let openFailure: ApiError | TransportError | undefined;
  let outcome: ScheduleOutcome;
  const decisions = new DecisionWatch();
  const stopHeartbeat = startHeartbeat(decisions, (sentence) => run.recorder.notice(sentence), run.heartbeat);
  try {
    // Cards only for agents with episodes to play: a resume may have nothing left for some.
    const labels = experiment.agents.map((a) => a.label).filter((label) => run.plan.episodes.some((e) => e.agent.label === label));
    try {
      const toOpen = labels.filter((label) => !takeOverCard(run, label, cards));
      await openCards(target.transport, toOpen, experiment.config.scorecard, cards, logger, run.cardEvents);
    } catch (error) {
      if (!isServiceFailure(error)) throw error;
      openFailure = error;
      logger.error({ error: error.message }, 'opening a scorecard failed: no episode is played');
    }
    if (openFailure === undefined) await playEpisodes(run, cards, queue, spend, decisions);
  } finally {
    stopHeartbeat();
    run.stop.dispose();
    run.recorder.close();
    // Every opened card is closed, whatever happened above: an open card keeps sessions alive remotely.
    outcome = { ...(await closeEverything(run, cards)), costStopped: spend.spent };
  }
  return openFailure === undefined ? outcome : { ...outcome, openFailure };
}

/**
 * How many more episodes than the run's concurrency may be finishing (played, their recordings still
 * being written). The recording thread confirms a close only after the file's last lines and its
 * close; with no more than `concurrency` finishing, play halted at each of them and the thread sat idle
 * a fifth of the time. Paired rounds of the bench's gzip run: +4% with 4 more, +9% with 8, +15% with
 * 16; but past 4 the recording thread's memory kept growing for tens of thousands of actions (RSS 14%
 * up from 10,000 to 100,000 actions with 16, against 6-7% with 4). A run killed at any moment has at
 * most this many more played episodes missing from episodes.jsonl, which a resume plays again.
 */
const FINISHING_HEADROOM = 4;

/** On the run's stop nothing more is scheduled; an interrupt also cuts the requests under way short. */
function clearQueueOnStop({ stop, target }: ScheduledRun, queue: PQueue): void {
  stop.signal.addEventListener(
    'abort',
    () => {
      queue.clear();
      // Interrupted: requests under way (and their retry waits) are cut short, so the run ends at once;
      // the cards' close requests go out afterwards as usual. A spent wall time lets them finish.
      if (stop.reason === 'cancelled') target.transport.interrupt();
    },
    { once: true },
  );
}

async function playEpisodes(run: ScheduledRun, cards: ReadonlyMap<string, string>, queue: PQueue, spend: RunSpend, decisions: DecisionWatch): Promise<void> {
  const { plan, stop, recorder, experiment } = run;
  clearQueueOnStop(run, queue);
  const setup = episodeSetup(run, spend, decisions);
  const finishing = new FinishingEpisodes();
  let previousAdded: Promise<unknown> = Promise.resolve();
  for (const spec of plan.episodes) {
    void queue.add(async () => {
      if (stop.signal.aborted || spend.spent) return;
      const key = keyOfSpec(spec);
      const { env, cutByRunStop } = setup.episode({
        cardId: cards.get(spec.agent.label)!,
        continueFrom: run.continuations?.continueFrom.get(key),
        restartReason: run.continuations?.restartReasons.get(key),
      });
      const played = await playEpisode(spec, env);
      // Added in the order play ended, not the order recordings completed (a file still being made can
      // finish after a later one), so that a run's results list its episodes as they were played.
      const added = Promise.all([played.finished, previousAdded]).then(([record]: [EpisodeRecord, unknown]) => {
        // A resume plays it again: the run's stop, not the episode, decided where it ended.
        if (cutByRunStop()) record.cut_by_run_stop = true;
        recorder.add(record);
        // Only now: killed before the record was in episodes.jsonl, a resume continues from it.
        played.checkpoints.remove();
      });
      previousAdded = added.catch(() => undefined);
      finishing.track(added);
      // The place goes to the next episode while this one's recording is finished, but only so far ahead.
      await finishing.atMost(experiment.config.concurrency + FINISHING_HEADROOM);
    });
  }
  await queue.onIdle();
  await finishing.all();
}

/** What this process's episodes share (episode/episodeSetup.ts): the run folder, the stop, the run's counters. */
function episodeSetup(run: ScheduledRun, spend: RunSpend, decisions: DecisionWatch): EpisodeSetupBuilder {
  const { experiment, target, stop, recorder, logger } = run;
  const { config } = experiment;
  const competition = config.scorecard.competition_mode;
  let runSequence = run.firstRunSequence ?? 0;
  return new EpisodeSetupBuilder({
    config: episodeConfigOf(experiment),
    runDir: run.runDir,
    transport: target.transport,
    stop,
    attempt: run.attempt ?? 1,
    notContinuable: notContinuable(run),
    nextRunSequence: () => runSequence++,
    baselines: new GameBaselines(target.transport, !competition, baselineNotices(logger)),
    logger,
    onAction: () => recorder.countAction(),
    onUsage: (call) => spend.add(call),
    decisions,
    ...(run.agentOutput === undefined ? {} : { agentOutput: run.agentOutput }),
  });
}

/** A card a resume took over (continuations.ts) is the agent's card in this attempt: its episodes go on on it. */
function takeOverCard(run: ScheduledRun, label: string, cards: Map<string, string>): boolean {
  const card = run.continuations?.cards.get(label);
  if (card === undefined) return false;
  run.target.transport.adoptAffinity?.(card.card_id, card.affinity);
  cards.set(label, card.card_id);
  run.logger.info({ agent: label, card_id: card.card_id, attempt: card.attempt }, 'scorecard taken over from a dead attempt');
  return true;
}

/** Why the episodes' sessions cannot be continued on a target whose sessions end with this process (then one checkpoint per episode only says so to a resume). */
function notContinuable(run: ScheduledRun): string | undefined {
  return sessionsEndWithProcess(run.experiment.config.target);
}

async function closeEverything(run: ScheduledRun, cards: ReadonlyMap<string, string>): Promise<Omit<ScheduleOutcome, 'costStopped'>> {
  const closed = await closeCards(run.target.transport, cards, run.logger, run.cardEvents);
  const stats = run.target.transport.stats();
  await run.target.close().catch((error: unknown) => run.logger.warn({ error: (error as Error).message }, 'closing the target failed'));
  return { cards, closed, stats, pageRoot: run.target.pageRoot };
}
