/**
 * junit.xml: a run in the shape CI systems already show (GitHub, GitLab, Jenkins). One test suite per
 * agent, one test case per game; a case fails when an episode of it failed, or, against a baseline,
 * when it regressed. With a baseline each suite also has a "total" case that carries the gate's verdict
 * on the agent's total. Built with junit-report-builder.
 */
import { withoutResultSentence } from '../../analysis/planDenominators.ts';
import junitReportBuilder, { type Builder } from 'junit-report-builder';
import type { ComparisonRow } from '../../analysis/compareRuns.ts';
import { TOTAL } from '../../analysis/episodeSample.ts';
import { formatCost, formatCount, formatInterval, formatScore, formatSigned } from '../../analysis/format.ts';
import type { UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { UNKNOWN_SCORES_REASON } from '../../analysis/localScoring.ts';
import type { RunReport, TableRow } from '../../runfolder/runReport.ts';

// The package is CommonJS (module.exports = the builder), which Node hands over as the default import;
// its types declare an ES default export instead, which TypeScript's NodeNext reading then nests once more.
const junitBuilder = junitReportBuilder as unknown as Builder;

export interface JunitInput {
  readonly report: RunReport;
  readonly rows: readonly TableRow[];
  readonly episodes: readonly EpisodeRecord[];
  /** The comparison's rows with a baseline, else empty. */
  readonly compared: readonly ComparisonRow[];
  /** The rows among them that fail the gate. */
  readonly regressions: readonly ComparisonRow[];
  /** The baseline's name, for failure messages. */
  readonly baseline?: string;
}

/** The episodes' wall time in seconds, to the millisecond: a float sum printed whole read `1.9220000000000002`. */
export const junitSeconds = (episodes: readonly Pick<EpisodeRecord, 'wall_seconds'>[]) =>
  Math.round(episodes.reduce((sum, e) => sum + e.wall_seconds, 0) * 1000) / 1000;

function episodeFailure(episodes: readonly EpisodeRecord[]): string | null {
  const failed = episodes.filter((e) => e.outcome === 'error');
  const [first] = failed;
  if (first === undefined) return null;
  const { error } = first;
  return `${failed.length} of ${episodes.length} episode(s) failed; first: episode ${first.episode}: ${error ? `${error.kind}: ${error.message}` : 'unknown error'}`;
}

function regressionFailure(row: ComparisonRow, baseline: string | undefined): string {
  return `regressed against ${baseline ?? 'the baseline'}: mean score ${formatScore(row.baseline.mean)} → ${formatScore(row.candidate.mean)}, difference ${formatSigned(row.difference.value)} ${formatInterval(row.difference.interval, true)}`;
}

/** Why a row's scores are unknown: planned episodes without a result, else its game's baselines. */
const unknownWhy = (row: TableRow) =>
  (row.missing_episodes?.length ?? 0) > 0
    ? withoutResultSentence(row.missing_episodes!, row.planned_episodes ?? row.missing_episodes!.length)
    : UNKNOWN_SCORES_REASON.replace(/^unknown: /, '');

const describeScores = (row: TableRow) =>
  row.mean_score === null || row.card_score === null
    ? `scores unknown (${unknownWhy(row)})`
    : `mean score ${formatScore(row.mean_score)} ${formatInterval(row.interval)}, card score ${formatScore(row.card_score)}`;

const describeRow = (row: TableRow) =>
  `${describeScores(row)}${row.service_score == null ? '' : `, service score ${formatScore(row.service_score)}`}, levels ${row.levels_completed}/${row.level_count}, ${row.episodes} episode(s), ${row.wins} win(s), ${row.errors} error(s)${describeUsage(row.usage)}`;

/** The model's tokens and dollars, when the agent called one. */
const describeUsage = (usage: UsageTotals) =>
  usage.calls === 0
    ? ''
    : `; ${formatCount(usage.calls)} model call(s), ${formatCount(usage.input_tokens)} input tokens (${formatCount(usage.cached_input_tokens)} cached), ${formatCount(usage.output_tokens)} output tokens (${formatCount(usage.reasoning_tokens)} reasoning), cost $${formatCost(usage.cost_usd)}`;

/** The same figures as properties CI systems can read (cost_usd is `unknown` when a call had no price). */
function usageProperties(node: { property(name: string, value: string): unknown }, usage: UsageTotals): void {
  if (usage.calls === 0) return;
  node.property('input_tokens', String(usage.input_tokens));
  node.property('cached_input_tokens', String(usage.cached_input_tokens));
  node.property('output_tokens', String(usage.output_tokens));
  node.property('reasoning_tokens', String(usage.reasoning_tokens));
  node.property('cost_usd', usage.cost_usd === null ? 'unknown' : String(usage.cost_usd));
}

const describeComparison = (row: ComparisonRow) =>
  `against the baseline: ${formatSigned(row.difference.value)} ${formatInterval(row.difference.interval, true)}, ${row.verdict} (${row.pairing})`;

export function buildJunitXml(input: JunitInput): string {
  const builder = junitBuilder.newBuilder().name(input.report.name);
  const compared = (agent: string, game: string) => input.compared.find((r) => r.agent === agent && r.game === game);
  const regressed = (agent: string, game: string) => input.regressions.find((r) => r.agent === agent && r.game === game);
  for (const agent of input.report.agents) {
    const mine = input.episodes.filter((e) => e.agent === agent.label);
    const suite = builder.testSuite().name(agent.label).timestamp(new Date(input.report.started_at)).time(junitSeconds(mine));
    usageProperties(suite, agent.usage);
    for (const row of input.rows.filter((r) => r.agent === agent.label && r.game !== TOTAL)) {
      const ofGame = mine.filter((e) => e.game_id === row.game);
      const comparison = compared(agent.label, row.game);
      const testCase = suite
        .testCase()
        .className(agent.label)
        .name(row.game)
        .time(junitSeconds(ofGame))
        .standardOutput([describeRow(row), ...(comparison ? [describeComparison(comparison)] : [])].join('\n'));
      usageProperties(testCase, row.usage);
      const regression = regressed(agent.label, row.game);
      const failures = [episodeFailure(ofGame), regression ? regressionFailure(regression, input.baseline) : null].filter((f): f is string => f !== null);
      if (failures.length > 0) testCase.failure(failures.join('; '), regression ? 'regression' : 'episode_error');
    }
    const total = compared(agent.label, TOTAL);
    if (total !== undefined) {
      const testCase = suite.testCase().className(agent.label).name(TOTAL).standardOutput(describeComparison(total));
      const regression = regressed(agent.label, TOTAL);
      if (regression) testCase.failure(regressionFailure(regression, input.baseline), 'regression');
    }
  }
  return builder.build();
}
