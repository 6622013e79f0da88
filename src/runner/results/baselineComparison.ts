/**
 * `run --baseline`: the finished run compared with a baseline run folder (read before the run started,
 * so a wrong path fails at once), and what the gate makes of it.
 */
import { compareRuns, RunsNotComparableError } from '../../analysis/compareRuns.ts';
import { type ComparisonDocument, comparisonDocument, DEFAULT_THRESHOLD } from '../../analysis/gate.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import type { AgentSetup } from '../../analysis/episodeSample.ts';
import type { RunFolder } from '../../runfolder/readRunFolder.ts';
import { runEpisodesOf, runEpisodesOfFolder } from '../../analysis/runEpisodes.ts';
import { type CardComparison, compareHarnessCards } from '../../analysis/harnessCardDiff.ts';
import type { HarnessCard } from '../../runfolder/harnessCard.ts';

export interface BaselineOptions {
  readonly folder: RunFolder;
  /** How the baseline is named in output (the path the user gave). */
  readonly name: string;
  /** Score points (default DEFAULT_THRESHOLD). */
  readonly threshold?: number;
  readonly perGame?: boolean;
  readonly failOnRegression?: boolean;
}

/**
 * The comparison with what differs between the two harness cards (said before any score), or the
 * sentence saying why the runs cannot be compared.
 */
export type BaselineOutcome =
  | { readonly document: ComparisonDocument; readonly cards: CardComparison; readonly error: null }
  | { readonly document: null; readonly error: string };

export function compareWithBaseline(
  baseline: BaselineOptions,
  candidate: {
    name: string;
    agents: readonly string[];
    episodes: readonly EpisodeRecord[];
    setups?: Readonly<Record<string, AgentSetup>>;
    harnessCard?: HarnessCard | undefined;
  },
): BaselineOutcome {
  try {
    const candidateRun = { ...runEpisodesOf(candidate.name, candidate.agents, candidate.episodes), setups: candidate.setups };
    const comparison = compareRuns(runEpisodesOfFolder(baseline.folder, baseline.name), candidateRun, {
      threshold: baseline.threshold ?? DEFAULT_THRESHOLD,
    });
    return {
      document: comparisonDocument(comparison, { perGame: baseline.perGame === true, failOnRegression: baseline.failOnRegression === true }),
      cards: compareHarnessCards(baseline.folder.report.harness_card, candidate.harnessCard),
      error: null,
    };
  } catch (error) {
    if (error instanceof RunsNotComparableError) return { document: null, error: `cannot compare with the baseline ${baseline.name}: ${error.message}` };
    throw error;
  }
}
