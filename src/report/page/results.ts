/** The results table: per agent and game, and per agent in total. */
import { TOTAL_ROW, type ResultRow } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

export function resultsTable(rows: readonly ResultRow[], nameOf: (game: string) => string = String): HTMLElement {
  if (rows.length === 0) return el('p', { class: 'empty' }, 'No finished episode yet.');
  const withIntervals = rows.some((row) => row.interval !== null);
  const head = ['agent', 'game', 'episodes', 'card score', 'mean score', ...(withIntervals ? ['95% interval'] : []), 'levels', 'actions', 'wins', 'errors'];
  const titles: Record<string, string> = {
    'card score': "the scorecard's score as the service defines it (a game's best run)",
    'mean score': "the mean of the episodes' own scores (each its best run)",
    '95% interval': 'the 95% confidence interval of the mean score, as the run recorded it',
    levels: 'best levels completed of the levels there are',
  };
  return el(
    'table',
    { class: 'results', 'data-testid': 'results' },
    el('thead', {}, el('tr', {}, ...head.map((name, i) => el('th', { class: i < 2 ? '' : 'num', scope: 'col', title: titles[name] }, name)))),
    el('tbody', {}, ...rows.map((row) => resultRow(row, withIntervals, nameOf))),
  );
}

function resultRow(row: ResultRow, withIntervals: boolean, nameOf: (game: string) => string): HTMLElement {
  const num = (value: string | number) => el('td', { class: 'num' }, value);
  return el(
    'tr',
    { class: row.game === TOTAL_ROW ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game },
    el('td', {}, row.agent),
    el('td', {}, row.game === TOTAL_ROW ? row.game : nameOf(row.game)),
    num(row.episodes),
    num(format.score(row.score)),
    num(format.score(row.mean)),
    withIntervals && num(row.interval === null ? 'n/a' : `${format.score(row.interval.low)} – ${format.score(row.interval.high)}`),
    num(row.levels),
    num(format.count(row.actions)),
    num(row.wins),
    el('td', { class: row.errors > 0 ? 'num bad' : 'num' }, row.errors),
  );
}
