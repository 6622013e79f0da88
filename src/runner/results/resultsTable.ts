/**
 * The results table: per agent and game, the card's score as the service defines it (the best
 * episode's), the mean episode score with its 95% interval, the card's levels, actions, wins, errors
 * and episodes, and, when agents called a model, its tokens and dollars; per agent a total row. The same
 * rows go to the terminal (cli-table3), table.md and run.json.
 */
import Table from 'cli-table3';
import { sumUsage } from '../../agent/usage.ts';
import { episodesByAgentAndGame, type ScoredEpisode, TOTAL } from '../../analysis/episodeSample.ts';
import { formatCost, formatCount, formatInterval, formatScore } from '../../analysis/format.ts';
import { summarizeScores } from '../../analysis/scoreSummary.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { gamesWithoutBaselines, scoreEpisodes, UNKNOWN_SCORES_REASON } from '../../analysis/localScoring.ts';
import { runEpisodesOf } from '../../analysis/runEpisodes.ts';
import type { RunReport, TableRow } from '../../runfolder/runReport.ts';
import type { ScorecardAnswer } from '../../protocol/index.ts';

export type { TableRow } from '../../runfolder/runReport.ts';

const HEADER = ['agent', 'game', 'episodes', 'card score', 'mean score', '95% CI', 'levels', 'actions', 'wins', 'errors'];
/** Beside the local card score, wherever the service returned a card: its own score. */
const SERVICE_HEADER = 'service score';
const USAGE_HEADER = ['input tokens', 'cached tokens', 'output tokens', 'cost $'];

/** Usage columns appear only in runs where some agent called a model. */
const showsUsage = (rows: readonly TableRow[]) => rows.some((row) => row.usage.calls > 0);

const count = (episodes: readonly EpisodeRecord[], outcome: EpisodeRecord['outcome']) => episodes.filter((e) => e.outcome === outcome).length;

/** Per agent label, every card the service returned for it (one per attempt or shard). */
export type ServiceCards = ReadonlyMap<string, readonly ScorecardAnswer[]>;

/**
 * The service cards of run.json's agents, from every card of every attempt. An agent with a card lost
 * with its process (a resumed in-process run) has none: no card of the service covers all its episodes,
 * and a service score beside a card score of them all would not agree with it (serviceScoreNote says so).
 */
export function serviceCardsOf(report: Pick<RunReport, 'cards'>): ServiceCards {
  const byAgent = new Map<string, ScorecardAnswer[]>();
  const partial = new Set(agentsWithLostCards(report));
  for (const card of report.cards) {
    if (card.scorecard === null || partial.has(card.agent)) continue;
    const list = byAgent.get(card.agent);
    if (list === undefined) byAgent.set(card.agent, [card.scorecard]);
    else list.push(card.scorecard);
  }
  return byAgent;
}

function agentsWithLostCards(report: Pick<RunReport, 'cards'>): string[] {
  return [...new Set(report.cards.filter((card) => card.state === 'lost').map((card) => card.agent))];
}

/** Said under the table when some agent's service score is left out, and why; undefined when none is. */
export function serviceScoreNote(report: Pick<RunReport, 'cards'>): string | undefined {
  const agents = agentsWithLostCards(report);
  if (agents.length === 0) return undefined;
  return (
    `service score: not shown for ${agents.join(', ')}: a card of an earlier attempt was lost with its process, ` +
    "so no card of the service covers all its episodes; the card score (scored here with the service's code) covers them all"
  );
}

/**
 * The service's score for a game: its environment's score (its best run) on the agent's cards, the best
 * of them when several cards hold the game (a resumed or sharded run), as one card of all would say.
 */
function serviceGameScore(cards: readonly ScorecardAnswer[], game: string): number | null {
  const scores = cards.flatMap((card) => card.environments?.filter((env) => env.id === game && env.score != null).map((env) => env.score!) ?? []);
  return scores.length === 0 ? null : Math.max(...scores);
}

/** The service's score for the agent in total: the mean of its game scores, as a card's; null when a game has none. */
function serviceTotalScore(gameScores: readonly (number | null)[]): number | null {
  if (gameScores.length === 0 || gameScores.some((score) => score === null)) return null;
  return (gameScores as number[]).reduce((sum, score) => sum + score, 0) / gameScores.length;
}

/**
 * Rows per agent and game, then the agent's total. Scores are null where they are unknown (a game
 * without baselines; in total, any game); `service_score` is the service's own beside them.
 */
export function tableRows(agentLabels: readonly string[], episodes: readonly EpisodeRecord[], serviceCards: ServiceCards = new Map()): TableRow[] {
  const scored = episodesByAgentAndGame(runEpisodesOf('run', agentLabels, episodes).episodes);
  const rows: TableRow[] = [];
  for (const label of agentLabels) {
    const mine = episodes.filter((e) => e.agent === label);
    const card = scoreEpisodes(mine);
    const unknown = new Set(gamesWithoutBaselines(mine));
    const service = serviceCards.get(label) ?? [];
    const serviceScores: (number | null)[] = [];
    const byGame = scored.get(label) ?? new Map<string, ScoredEpisode[]>();
    const stats = summarizeScores(new Map([...byGame].map(([game, list]) => [game, list.map((e) => e.score)])));
    const games = [...new Set(mine.map((e) => e.game_id))].sort();
    for (const game of games) {
      const ofGame = mine.filter((e) => e.game_id === game);
      const environment = card.environments.find((env) => env.id === game);
      const known = !unknown.has(game);
      const estimate = known ? stats.games.get(game) : undefined;
      const serviceScore = serviceGameScore(service, game);
      serviceScores.push(serviceScore);
      rows.push({
        agent: label,
        game,
        episodes: ofGame.length,
        card_score: known ? (environment?.score ?? 0) : null,
        service_score: serviceScore,
        mean_score: estimate?.value ?? null,
        interval: estimate?.interval ?? null,
        levels_completed: environment?.levels_completed ?? 0,
        level_count: environment?.level_count ?? ofGame[0]!.baselines.length,
        ...(known ? {} : { baselines_known: false }),
        actions: ofGame.reduce((sum, e) => sum + e.actions, 0),
        wins: count(ofGame, 'win'),
        errors: count(ofGame, 'error'),
        usage: sumUsage(ofGame.map((e) => e.usage)),
      });
    }
    const allKnown = unknown.size === 0;
    rows.push({
      agent: label,
      game: TOTAL,
      episodes: mine.length,
      card_score: allKnown ? card.score : null,
      service_score: serviceTotalScore(serviceScores),
      mean_score: allKnown ? (stats.total?.value ?? 0) : null,
      interval: allKnown ? (stats.total?.interval ?? null) : null,
      levels_completed: card.total_levels_completed,
      level_count: card.total_levels,
      ...(allKnown ? {} : { baselines_known: false }),
      actions: mine.reduce((sum, e) => sum + e.actions, 0),
      wins: count(mine, 'win'),
      errors: count(mine, 'error'),
      usage: sumUsage(mine.map((e) => e.usage)),
    });
  }
  return rows;
}

/** Said under a table with an unknown score. */
const note = (rows: readonly TableRow[]) => (rows.some((row) => row.card_score === null || row.mean_score === null) ? `\n${UNKNOWN_SCORES_REASON}\n` : '');

const scoreCell = (score: number | null | undefined) => (score == null ? 'unknown' : formatScore(score));

/** The service's column shows where the service returned a card for some row. */
const showsService = (rows: readonly TableRow[]) => rows.some((row) => row.service_score != null);

function cells(row: TableRow, shown: { usage: boolean; service: boolean }): string[] {
  const base = [
    row.agent,
    row.game,
    String(row.episodes),
    scoreCell(row.card_score),
    ...(shown.service ? [row.service_score == null ? '–' : formatScore(row.service_score)] : []),
    scoreCell(row.mean_score),
    row.mean_score === null ? 'unknown' : formatInterval(row.interval),
    `${row.levels_completed}/${row.level_count}`,
    formatCount(row.actions),
    String(row.wins),
    String(row.errors),
  ];
  if (!shown.usage) return base;
  const { input_tokens, cached_input_tokens, output_tokens, cost_usd } = row.usage;
  return [...base, formatCount(input_tokens), formatCount(cached_input_tokens), formatCount(output_tokens), formatCost(cost_usd)];
}

/** The header and which columns are numbers, with the service's and the usage columns when the rows have them. */
function columns(rows: readonly TableRow[]): { head: string[]; numeric: boolean[]; shown: { usage: boolean; service: boolean } } {
  const shown = { usage: showsUsage(rows), service: showsService(rows) };
  const head = [...HEADER.slice(0, 4), ...(shown.service ? [SERVICE_HEADER] : []), ...HEADER.slice(4), ...(shown.usage ? USAGE_HEADER : [])];
  const numeric = head.map((_, i) => i >= 2);
  return { head, numeric, shown };
}

export function renderTerminalTable(rows: readonly TableRow[]): string {
  const { head, numeric, shown } = columns(rows);
  const table = new Table({ head, colAligns: numeric.map((n) => (n ? 'right' : 'left')), style: { head: [], border: [] } });
  for (const row of rows) table.push(cells(row, shown));
  return table.toString() + note(rows);
}

/** The columns a narrow terminal keeps: who, where, the scores, the levels and the dollars when a model was called. */
const COMPACT_HEADER = ['agent', 'game', 'card', 'mean', '95% CI', 'levels'];

/**
 * The table for a terminal narrower than the full one (133 columns, 200 and more with a model's): the
 * scores and levels only, without borders between rows; table.md and run.json keep every column.
 */
export function renderCompactTable(rows: readonly TableRow[]): string {
  const usage = showsUsage(rows);
  const head = [...COMPACT_HEADER, ...(usage ? ['cost $'] : [])];
  const table = new Table({
    head,
    colAligns: head.map((_, i) => (i >= 2 ? 'right' : 'left')),
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows) {
    table.push([
      row.agent,
      row.game,
      scoreCell(row.card_score),
      scoreCell(row.mean_score),
      row.mean_score === null ? 'unknown' : formatInterval(row.interval),
      `${row.levels_completed}/${row.level_count}`,
      ...(usage ? [formatCost(row.usage.cost_usd)] : []),
    ]);
  }
  return table.toString() + note(rows);
}

/** The widest line of a rendered table, in characters. */
export const tableWidth = (rendered: string): number => Math.max(0, ...rendered.split('\n').map((line) => [...line].length));

export function renderMarkdownTable(rows: readonly TableRow[]): string {
  const { head, numeric, shown } = columns(rows);
  const lines = [`| ${head.join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`];
  for (const row of rows) {
    const c = cells(row, shown);
    lines.push(`| ${(row.game === TOTAL ? c.map((v, i) => (i === 0 ? v : `**${v}**`)) : c).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n${note(rows)}`;
}
