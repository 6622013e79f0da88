/** The results table: per agent and game, and per agent in total, with the notes table.md has under it. */
import { TOTAL_ROW, type ResultRow } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

/** Which optional columns the rows fill. */
interface Shown {
  readonly intervals: boolean;
  readonly service: boolean;
  readonly spread: boolean;
  readonly human: boolean;
}

const TITLES: Record<string, string> = {
  episodes: 'episodes with a result, of those the plan declared when some have none',
  'card score': "the scorecard's score as the service defines it (a game's best run: a best draw), scored here from the episodes",
  'service score': "the service's own score on the card it returned",
  'mean score': "the mean of the episodes' own scores (each its best run): the estimate to rank on",
  '95% interval': "the 95% interval of the mean score: a game's over its episodes, a total's clustered by game",
  'repeats: mean ± SD (min–max)': "each repeat's score (the mean over its games), their mean, SD and range: how far one run can land from another",
  levels: 'best levels completed of the levels there are',
  '× human actions': "counted actions ÷ the summed human baselines of the games' levels",
};

/** `unknownScores`: why some scores are unknown (said once under the table), or null; `notes`: the lines under the table. */
export function resultsTable(
  rows: readonly ResultRow[],
  unknownScores: string | null = null,
  nameOf: (game: string) => string = String,
  notes: readonly string[] = [],
): HTMLElement {
  if (rows.length === 0) return el('p', { class: 'empty' }, 'No finished episode yet.');
  const shown: Shown = {
    intervals: rows.some((row) => row.interval !== null),
    service: rows.some((row) => row.service_score !== null),
    spread: rows.some((row) => (row.spread?.repeats ?? 0) > 1),
    human: rows.some((row) => row.baseline_share != null),
  };
  const head = [
    'agent',
    'game',
    'episodes',
    'card score',
    ...(shown.service ? ['service score'] : []),
    'mean score',
    ...(shown.intervals ? ['95% interval'] : []),
    ...(shown.spread ? ['repeats: mean ± SD (min–max)'] : []),
    'levels',
    'actions',
    ...(shown.human ? ['× human actions'] : []),
    'wins',
    'errors',
  ];
  const table = el(
    'table',
    { class: 'results', 'data-testid': 'results' },
    el('thead', {}, el('tr', {}, ...head.map((name, i) => el('th', { class: i < 2 ? '' : 'num', scope: 'col', title: TITLES[name] }, name)))),
    el('tbody', {}, ...rows.map((row) => resultRow(row, shown, nameOf))),
  );
  return el(
    'div',
    {},
    table,
    ...notes.map((note) => el('p', { class: 'note', 'data-testid': 'results-note' }, note)),
    unknownScores !== null && el('p', { class: 'note', 'data-testid': 'unknown-scores' }, unknownScores),
  );
}

/** A score, or `unknown` where it cannot be computed (never 0). */
const knownScore = (value: number | null) => (value === null ? 'unknown' : format.score(value));

/** `3`, or `3 of 4` (episodes with a result, of those planned) when some have none. */
const episodesCell = (row: ResultRow) =>
  row.planned !== undefined && (row.missing ?? 0) > 0 ? `${row.planned - row.missing!} of ${row.planned}` : String(row.episodes);

function resultRow(row: ResultRow, shown: Shown, nameOf: (game: string) => string): HTMLElement {
  const num = (value: string | number) => el('td', { class: 'num' }, value);
  return el(
    'tr',
    { class: row.game === TOTAL_ROW ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game },
    el('td', {}, row.agent),
    el('td', {}, row.game === TOTAL_ROW ? row.game : nameOf(row.game)),
    num(episodesCell(row)),
    num(knownScore(row.score)),
    shown.service && num(format.score(row.service_score)),
    num(knownScore(row.mean)),
    shown.intervals &&
      num(row.mean === null ? 'unknown' : row.interval === null ? 'n/a' : `${format.score(row.interval.low)} – ${format.score(row.interval.high)}`),
    shown.spread && num(row.spread_text ?? '–'),
    num(row.levels),
    num(format.count(row.actions)),
    shown.human && num(row.baseline_share == null ? 'unknown' : `${row.baseline_share.toFixed(2)}×`),
    num(row.wins),
    el('td', { class: row.errors > 0 ? 'num bad' : 'num' }, row.errors),
  );
}
