/**
 * Compares a candidate run with a baseline run: per agent and game, and per agent over the games both
 * runs played, the two mean episode scores, their difference with a 95% bootstrap interval (paired
 * where episodes pair, see pairing.ts) and a verdict. The regression gate reads the verdicts.
 */
import { emptyUsage, sumUsage, type UsageTotals } from '../agent/usage.ts';
import { ArcbenchError } from '../errors.ts';
import { agentChangeNotes } from './agentChanges.ts';
import { type BootstrapOptions, type Estimate, type Interval, meanStratum, stratifiedEstimate, stratumEstimate } from './bootstrap.ts';
import { episodesByAgentAndGame, type RunEpisodes, type ScoredEpisode, TOTAL } from './episodeSample.ts';
import { type GamePairing, pairGame } from './pairing.ts';
import { judgeTotal, type TotalJudgement, tooCloseToCall } from './totalJudgement.ts';

/** `too close to call`: the interval leaves zero, but the difference is under what the run can detect (totals only). */
export type Verdict = 'better' | 'worse' | 'no significant change' | 'identical' | 'too close to call';

export interface SideSummary {
  readonly mean: number;
  readonly episodes: number;
  /** Model usage of these episodes: what the score cost. */
  readonly usage: UsageTotals;
}

export interface ComparisonRow {
  readonly agent: string;
  /** A game id, or TOTAL for the agent's games together. */
  readonly game: string;
  readonly baseline: SideSummary;
  readonly candidate: SideSummary;
  /** candidate − baseline, in score points, with its interval. */
  readonly difference: Estimate;
  readonly pairing: 'paired' | 'unpaired' | 'partly paired';
  /** Why episodes did not pair, when they did not. */
  readonly note: string | null;
  readonly verdict: Verdict;
  /** Worse by its interval, with the whole interval below −threshold (the gate's reading, even when too close to call). */
  readonly regression: boolean;
  /** Total rows: the interval clustered by game, the spread across repeats and the minimum detectable difference. */
  readonly judgement?: TotalJudgement;
}

export interface RunComparison {
  readonly baseline: string;
  readonly candidate: string;
  /** Points a difference must fall below zero by, with its whole interval, to count as a regression. */
  readonly threshold: number;
  /** Per agent: its game rows, then its total row. */
  readonly rows: readonly ComparisonRow[];
  /** Sentences: an agent whose label stayed while the agent changed, and what was left out (agents or games in only one run). */
  readonly notes: readonly string[];
}

export interface CompareOptions extends BootstrapOptions {
  /** Score points (default 0). */
  readonly threshold?: number;
}

/** The runs share no agent, or no game of any shared agent: a comparison would say nothing. */
export class RunsNotComparableError extends ArcbenchError {
  constructor(message: string) {
    super('RUNS_NOT_COMPARABLE', message);
  }
}

function verdictOf(identical: boolean, interval: Interval | null): Verdict {
  if (identical) return 'identical';
  if (interval !== null && interval.low > 0) return 'better';
  if (interval !== null && interval.high < 0) return 'worse';
  return 'no significant change';
}

function side(episodes: readonly ScoredEpisode[]): SideSummary {
  return {
    mean: stratumEstimate(meanStratum(episodes.map((e) => e.score))),
    episodes: episodes.length,
    usage: sumUsage(episodes.map((e) => e.usage ?? emptyUsage())),
  };
}

/** Several games as one: the mean over games of their means (as the total's estimate), episodes summed. */
function combined(sides: readonly SideSummary[]): SideSummary {
  return {
    mean: sides.reduce((sum, s) => sum + s.mean, 0) / sides.length,
    episodes: sides.reduce((sum, s) => sum + s.episodes, 0),
    usage: sumUsage(sides.map((s) => s.usage)),
  };
}

interface GameInput {
  readonly game: string;
  readonly baseline: readonly ScoredEpisode[];
  readonly candidate: readonly ScoredEpisode[];
  readonly pairing: GamePairing;
}

function row(agent: string, game: string, inputs: readonly GameInput[], threshold: number, options: BootstrapOptions): ComparisonRow {
  const difference = stratifiedEstimate(
    inputs.map((input) => input.pairing.stratum),
    options,
  );
  const paired = inputs.filter((input) => input.pairing.paired).length;
  const byInterval = verdictOf(
    inputs.every((input) => input.pairing.identical),
    difference.interval,
  );
  const judgement =
    game === TOTAL
      ? judgeTotal(inputs.map((input) => ({ baseline: input.baseline, candidate: input.candidate, difference: stratumEstimate(input.pairing.stratum) })))
      : undefined;
  const called = byInterval === 'better' || byInterval === 'worse';
  const regression = byInterval === 'worse' && difference.interval !== null && difference.interval.high < -threshold;
  // A regression the gate counts keeps its `worse`, so the table never disagrees with the exit code; its note says it is under the MDD.
  const verdict = called && !regression && judgement !== undefined && tooCloseToCall(difference.value, judgement) ? 'too close to call' : byInterval;
  const notes = inputs
    .filter((input) => input.pairing.note !== null)
    .map((input) => (inputs.length > 1 ? `${input.game}: ${input.pairing.note}` : input.pairing.note));
  return {
    agent,
    game,
    baseline: combined(inputs.map((input) => side(input.baseline))),
    candidate: combined(inputs.map((input) => side(input.candidate))),
    difference,
    pairing: paired === inputs.length ? 'paired' : paired === 0 ? 'unpaired' : 'partly paired',
    note: notes.length === 0 ? null : notes.join('; '),
    verdict,
    regression,
    ...(judgement === undefined ? {} : { judgement }),
  };
}

/** Why a run has episodes without a score (RunEpisodes.unscored). */
const UNKNOWN_WHY = 'the service gave no level baselines for them';

/** An agent's games with an episode of unknown score in the run. */
const unscoredGames = (run: RunEpisodes, agent: string) => new Set((run.unscored ?? []).filter((e) => e.agent === agent).map((e) => e.game));

const listed = (names: readonly string[]) => (names.length === 0 ? 'none' : names.join(', '));

/**
 * Compares two runs. Throws RunsNotComparableError when they share no agent label, or no shared agent
 * played a game in both; what only one run holds is left out and named in `notes`.
 */
export function compareRuns(baseline: RunEpisodes, candidate: RunEpisodes, options: CompareOptions = {}): RunComparison {
  const threshold = options.threshold ?? 0;
  const agents = baseline.agents.filter((agent) => candidate.agents.includes(agent));
  if (agents.length === 0) {
    throw new RunsNotComparableError(
      `the runs share no agent label (baseline: ${listed(baseline.agents)}; candidate: ${listed(candidate.agents)}); compare runs of the same config, or give the agents the same labels`,
    );
  }
  const notes: string[] = agentChangeNotes(agents, baseline.setups, candidate.setups);
  const onlyIn = (run: RunEpisodes, other: RunEpisodes) => run.agents.filter((agent) => !other.agents.includes(agent));
  if (onlyIn(baseline, candidate).length > 0) notes.push(`only in the baseline, not compared: ${onlyIn(baseline, candidate).join(', ')}`);
  if (onlyIn(candidate, baseline).length > 0) notes.push(`only in the candidate, not compared: ${onlyIn(candidate, baseline).join(', ')}`);

  const baselineEpisodes = episodesByAgentAndGame(baseline.episodes);
  const candidateEpisodes = episodesByAgentAndGame(candidate.episodes);
  const rows: ComparisonRow[] = [];
  for (const agent of agents) {
    const b = baselineEpisodes.get(agent) ?? new Map<string, ScoredEpisode[]>();
    const c = candidateEpisodes.get(agent) ?? new Map<string, ScoredEpisode[]>();
    const unknownIn = { baseline: unscoredGames(baseline, agent), candidate: unscoredGames(candidate, agent) };
    for (const [which, unknown] of Object.entries(unknownIn))
      if (unknown.size > 0) notes.push(`${agent}: scores unknown in the ${which} (${UNKNOWN_WHY}), not compared: ${[...unknown].sort().join(', ')}`);
    const unknown = new Set([...unknownIn.baseline, ...unknownIn.candidate]);
    const games = [...b.keys()].filter((game) => c.has(game) && !unknown.has(game));
    const leftOut = [...new Set([...b.keys(), ...c.keys()])].filter((game) => !games.includes(game) && !unknown.has(game)).sort();
    if (leftOut.length > 0) notes.push(`${agent}: played in one run only, not compared: ${leftOut.join(', ')}`);
    if (games.length === 0) {
      notes.push(`${agent}: no game with finished episodes in both runs`);
      continue;
    }
    const inputs = games.map((game): GameInput => ({ game, baseline: b.get(game)!, candidate: c.get(game)!, pairing: pairGame(b.get(game)!, c.get(game)!) }));
    for (const input of inputs) rows.push(row(agent, input.game, [input], threshold, options));
    rows.push(row(agent, TOTAL, inputs, threshold, options));
  }
  if (rows.length === 0) {
    throw new RunsNotComparableError(`no agent played a game in both runs (${notes.join('; ')}); compare runs that played the same games`);
  }
  return { baseline: baseline.name, candidate: candidate.name, threshold, rows, notes };
}
