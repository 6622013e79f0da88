/**
 * The run folder's finishing files, once every episode is in: run.json (with the results table),
 * table.md, the comparison with a baseline (comparison.json and comparison.md), junit.xml, and the
 * GitHub step summary when one is asked for.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { renderComparisonMarkdown } from '../../analysis/comparisonTable.ts';
import { harnessCardMarkdown } from '../../analysis/harnessCardDiff.ts';
import { formatCost, formatCount } from '../../analysis/format.ts';
import type { UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { type BaselineOptions, type BaselineOutcome, compareWithBaseline } from './baselineComparison.ts';
import { buildJunitXml } from './junitReport.ts';
import type { Redactor } from '../../redaction.ts';
import { renderMarkdownTable, renderTerminalTable, serviceCardsOf, serviceScoreNote, type TableRow, tableRows } from './resultsTable.ts';
import { unplayedSentence } from './runCompleteness.ts';
import { levelsMarkdown } from './levelsSection.ts';
import { plannedRunOf } from './plannedRun.ts';
import { agentSetups, runEpisodesOf } from '../../analysis/runEpisodes.ts';
import { factorialSummary } from '../../analysis/factorialSummary.ts';
import { type RunReport, writeRunReport } from '../../runfolder/runReport.ts';
import { runFolderLayout } from '../../runfolder/layout.ts';

export interface ResultsToWrite {
  readonly runDir: string;
  readonly report: RunReport;
  readonly agentLabels: readonly string[];
  readonly episodes: readonly EpisodeRecord[];
  readonly logger: Logger;
  /** The config's secrets: a label taken from the environment must not show in a table. */
  readonly redactor?: Redactor;
  readonly baseline?: BaselineOptions;
  /** A file to append the markdown summary to (GitHub's GITHUB_STEP_SUMMARY). */
  readonly stepSummary?: string;
}

export interface WrittenResults {
  /** run.json as written, with its table. */
  readonly report: RunReport;
  /** The results table, drawn for a terminal. */
  readonly table: string;
  /** Null without a baseline. */
  readonly baseline: BaselineOutcome | null;
}

export function writeResults(input: ResultsToWrite): WrittenResults {
  const { runDir, logger } = input;
  for (const agent of input.report.agents) {
    if (agent.score_differences && agent.score_differences.length > 0) {
      logger.warn({ agent: agent.label, differences: agent.score_differences }, 'local score and the service scorecard differ');
    }
  }
  const built = tableRows(input.agentLabels, input.episodes, serviceCardsOf(input.report), plannedRunOf(input.report));
  const rows = input.redactor?.active ? (input.redactor.value(built) as TableRow[]) : built;
  const factorial = factorialSummary(input.report.agents, runEpisodesOf(runDir, input.agentLabels, input.episodes).episodes);
  const report: RunReport = { ...input.report, table: rows, ...(factorial === null ? {} : { factorial }) };
  writeRunReport(runDir, report);
  // Episodes a stop or a crash left unplayed are said under the table, with the command that plays them.
  const notes = [unplayedSentence(report, runDir), serviceScoreNote(report)].filter((note) => note !== undefined);
  const tableMarkdown = renderMarkdownTable(rows) + notes.map((note) => `\n${note}\n`).join('') + levelsMarkdown(rows);
  writeFileSync(runFolderLayout(runDir).table, `# ${report.name}\n\n${tableMarkdown}`);

  const baseline =
    input.baseline === undefined
      ? null
      : compareWithBaseline(input.baseline, {
          name: runDir,
          agents: input.agentLabels,
          episodes: input.episodes,
          setups: agentSetups(report),
          harnessCard: report.harness_card,
        });
  const view = { perGame: input.baseline?.perGame === true };
  if (baseline?.document) {
    // What differs between the harnesses first: a score difference is theirs too.
    writeFileSync(runFolderLayout(runDir).comparisonJson, `${JSON.stringify({ harness_cards: baseline.cards, ...baseline.document }, null, 2)}\n`);
    writeFileSync(runFolderLayout(runDir).comparisonMarkdown, `${harnessCardMarkdown(baseline.cards)}\n\n${renderComparisonMarkdown(baseline.document, view)}`);
    logger.info({ baseline: input.baseline?.name, regressions: baseline.document.regressions.length }, 'compared with the baseline');
  } else if (baseline?.error) {
    logger.error({ baseline: input.baseline?.name }, baseline.error);
  }
  writeFileSync(
    runFolderLayout(runDir).junit,
    buildJunitXml({
      report,
      rows,
      episodes: input.episodes,
      compared: baseline?.document?.rows ?? [],
      regressions: baseline?.document?.regressions ?? [],
      ...(input.baseline ? { baseline: input.baseline.name } : {}),
    }),
  );
  if (input.stepSummary !== undefined) appendFileSync(input.stepSummary, stepSummaryMarkdown(report, tableMarkdown, baseline, view, runDir));
  logger.info({ status: report.status, totals: report.totals }, 'run finished');
  logger.flush();
  return { report, table: renderTerminalTable(rows) + notes.map((note) => `\n${note}`).join(''), baseline };
}

/** What the run's model calls cost, for the step summary; nothing when no agent called a model. */
function spentSentence(usage: UsageTotals): string {
  if (usage.calls === 0) return '';
  return `, ${formatCount(usage.input_tokens)} input tokens (${formatCount(usage.cached_input_tokens)} cached), ${formatCount(usage.output_tokens)} output tokens, cost **$${formatCost(usage.cost_usd)}**`;
}

function stepSummaryMarkdown(report: RunReport, tableMarkdown: string, baseline: BaselineOutcome | null, view: { perGame: boolean }, runDir: string): string {
  const { totals } = report;
  const parts = [
    `## arcbench run: ${report.name}`,
    '',
    `Status **${report.status}**: ${totals.episodes} of ${totals.planned_episodes} episode(s), ${totals.errors} failed, ${formatCount(totals.actions)} actions, ${totals.wall_seconds.toFixed(1)} s${spentSentence(totals.usage)}. Results: \`${runDir}\`.`,
    '',
    tableMarkdown,
  ];
  if (baseline?.document) parts.push('### Against the baseline', '', renderComparisonMarkdown(baseline.document, view));
  if (baseline?.error) parts.push('### Against the baseline', '', baseline.error, '');
  return `${parts.join('\n')}\n`;
}
