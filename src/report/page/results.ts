/** The results table: per agent and game, and per agent in total. */
import { TOTAL_ROW, type ResultRow } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

/** `unknownScores`: why some scores are unknown (said once under the table), or null. */
export function resultsTable(rows: readonly ResultRow[], unknownScores: string | null = null, nameOf: (game: string) => string = String): HTMLElement {
  if (rows.length === 0) return el('p', { class: 'empty' }, 'No finished episode yet.');
  const withIntervals = rows.some((row) => row.interval !== null);
  const withService = rows.some((row) => row.service_score !== null);
  const head = [
    'agent',
    'game',
    'episodes',
    'card score',
    ...(withService ? ['service score'] : []),
    'mean score',
    ...(withIntervals ? ['95% interval'] : []),
    'levels',
    'actions',
    'wins',
    'errors',
  ];
  const titles: Record<string, string> = {
    'card score': "the scorecard's score as the service defines it (a game's best run), scored here from the episodes",
    'service score': "the service's own score on the card it returned",
    'mean score': "the mean of the episodes' own scores (each its best run)",
    '95% interval': 'the 95% confidence interval of the mean score, as the run recorded it',
    levels: 'best levels completed of the levels there are',
  };
  const table = el(
    'table',
    { class: 'results', 'data-testid': 'results' },
    el('thead', {}, el('tr', {}, ...head.map((name, i) => el('th', { class: i < 2 ? '' : 'num', scope: 'col', title: titles[name] }, name)))),
    el('tbody', {}, ...rows.map((row) => resultRow(row, withIntervals, withService, nameOf))),
  );
  return unknownScores === null ? table : el('div', {}, table, el('p', { class: 'note', 'data-testid': 'unknown-scores' }, unknownScores));
}

/** A score, or `unknown` where it cannot be computed (never 0). */
const knownScore = (value: number | null) => (value === null ? 'unknown' : format.score(value));

function resultRow(row: ResultRow, withIntervals: boolean, withService: boolean, nameOf: (game: string) => string): HTMLElement {
  const num = (value: string | number) => el('td', { class: 'num' }, value);
  return el(
    'tr',
    { class: row.game === TOTAL_ROW ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game },
    el('td', {}, row.agent),
    el('td', {}, row.game === TOTAL_ROW ? row.game : nameOf(row.game)),
    num(row.episodes),
    num(knownScore(row.score)),
    withService && num(format.score(row.service_score)),
    num(knownScore(row.mean)),
    withIntervals &&
      num(row.mean === null ? 'unknown' : row.interval === null ? 'n/a' : `${format.score(row.interval.low)} – ${format.score(row.interval.high)}`),
    num(row.levels),
    num(format.count(row.actions)),
    num(row.wins),
    el('td', { class: row.errors > 0 ? 'num bad' : 'num' }, row.errors),
  );
}
