/**
 * The one builder of an episode's environment, for the runner's scheduler and the worker pool alike:
 * where its recording, transcript and checkpoint go (all in the run folder, or none of them when the
 * player keeps no run folder), how the run's stop reaches it, and what a resume starts it from. What
 * differs between the two players is what they pass in: the run folder, the stop, how runs are
 * numbered, and why their target's sessions cannot outlive them.
 */
import type { Logger } from 'pino';
import type { EpisodeOutcome } from '../agent/contract.ts';
import type { ModelCallRecord } from '../agent/usage.ts';
import type { Transport } from '../client/transport.ts';
import type { RecordingFormat } from '../recording/recordingWriter.ts';
import type { Redactor } from '../redaction.ts';
import type { EpisodeCheckpoint } from '../runfolder/checkpointFile.ts';
import { runFolderLayout } from '../runfolder/layout.ts';
import type { Budgets } from './budgets.ts';
import type { CheckpointSettings } from './checkpointKeeper.ts';
import type { DecisionWatch } from './decisionWatch.ts';
import type { GameBaselines } from './gameBaselines.ts';
import type { EpisodeEnvironment } from './runEpisode.ts';

/** What the experiment says of its episodes' environment. */
export interface EpisodeConfig {
  readonly budgets: Budgets;
  readonly recordings: RecordingFormat | false;
  readonly transcripts: boolean;
  readonly competition: boolean;
  readonly baseDir: string;
  readonly redactor: Redactor;
}

/** An experiment as the episode setup reads it (the runner's Experiment has this shape). */
export interface ExperimentForEpisodes {
  readonly config: {
    readonly budgets: Budgets;
    readonly recordings: RecordingFormat | false;
    readonly transcripts: boolean;
    readonly scorecard: { readonly competition_mode: boolean };
  };
  readonly baseDir: string;
  readonly redactor: Redactor;
}

/** The episode config of an experiment, the same for the scheduler and a worker. */
export function episodeConfigOf({ config, baseDir, redactor }: ExperimentForEpisodes): EpisodeConfig {
  const { budgets, recordings, transcripts } = config;
  return { budgets, recordings, transcripts, competition: config.scorecard.competition_mode, baseDir, redactor };
}

/** What a player (the scheduler, a worker) shares among the episodes it plays. */
export interface PlayerParts {
  readonly config: EpisodeConfig;
  /** The run's folder; undefined when this player keeps none (then no recordings, transcripts or checkpoints). */
  readonly runDir: string | undefined;
  readonly transport: Transport;
  /** The run's stop: its signal, and the outcome of an episode it cuts. */
  readonly stop: { readonly signal: AbortSignal; readonly reason: EpisodeOutcome };
  /** The attempt's number, and why its target's sessions end with this process (undefined: they outlive it). */
  readonly attempt: number;
  readonly notContinuable: string | undefined;
  readonly nextRunSequence: () => number;
  readonly baselines: GameBaselines;
  readonly logger: Logger;
  readonly onAction?: () => void;
  readonly onUsage?: (call: ModelCallRecord) => void;
  readonly decisions?: DecisionWatch;
  readonly agentOutput?: (line: string) => void;
}

/** One episode's part: its card, and a resume's checkpoint to continue from or reason to start over. */
export interface EpisodeStart {
  readonly cardId: string;
  readonly continueFrom?: EpisodeCheckpoint | undefined;
  readonly restartReason?: string | undefined;
}

/** An episode's environment, and whether the run's stop (not the episode) decided where it ended. */
export interface EpisodeSetup {
  readonly env: EpisodeEnvironment;
  cutByRunStop(): boolean;
}

export class EpisodeSetupBuilder {
  readonly #parts: PlayerParts;
  readonly #recordings: EpisodeEnvironment['recordings'];
  readonly #transcripts: EpisodeEnvironment['transcripts'];
  readonly #checkpoints: CheckpointSettings | undefined;

  constructor(parts: PlayerParts) {
    this.#parts = parts;
    const { runDir, config } = parts;
    this.#recordings = runDir !== undefined && config.recordings !== false ? { dir: runFolderLayout(runDir).recordings, format: config.recordings } : undefined;
    this.#transcripts = runDir !== undefined && config.transcripts ? { dir: runFolderLayout(runDir).transcripts, redactor: config.redactor } : undefined;
    this.#checkpoints =
      runDir === undefined ? undefined : { runDir, attempt: parts.attempt, target: parts.transport.target, notContinuable: parts.notContinuable };
  }

  /** Where recordings go; undefined when they are off. */
  get recordings(): EpisodeEnvironment['recordings'] {
    return this.#recordings;
  }

  episode(start: EpisodeStart): EpisodeSetup {
    const { config, stop, transport } = this.#parts;
    let cutByRunStop = false;
    const env: EpisodeEnvironment = {
      transport,
      cardId: start.cardId,
      budgets: config.budgets,
      recordings: this.#recordings,
      transcripts: this.#transcripts,
      signal: stop.signal,
      abortOutcome: () => {
        cutByRunStop = true;
        return stop.reason;
      },
      baseDir: config.baseDir,
      nextRunSequence: this.#parts.nextRunSequence,
      baselines: this.#parts.baselines,
      competition: config.competition,
      logger: this.#parts.logger,
      ...(this.#parts.onAction === undefined ? {} : { onAction: this.#parts.onAction }),
      ...(this.#parts.onUsage === undefined ? {} : { onUsage: this.#parts.onUsage }),
      ...(this.#parts.decisions === undefined ? {} : { decisions: this.#parts.decisions }),
      ...(this.#parts.agentOutput === undefined ? {} : { agentOutput: this.#parts.agentOutput }),
      ...(this.#checkpoints === undefined ? {} : { checkpoints: this.#checkpoints }),
      ...(start.continueFrom === undefined ? {} : { continueFrom: start.continueFrom }),
      ...(start.restartReason === undefined ? {} : { restartReason: start.restartReason }),
    };
    return { env, cutByRunStop: () => cutByRunStop };
  }
}
