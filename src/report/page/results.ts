/** The results table: per agent and game, and per agent in total. */
import { TOTAL_ROW, type ResultRow } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

export function resultsTable(rows: readonly ResultRow[]): HTMLElement {
  if (rows.length === 0) return el('p', { class: 'empty' }, 'No finished episode yet.');
  const withIntervals = rows.some((row) => row.interval !== null);
  const head = ['agent', 'game', 'episodes', 'card score', 'mean score', ...(withIntervals ? ['95% interval'] : []), 'levels', 'actions', 'wins', 'errors'];
  return el(
    'table',
    { class: 'results', 'data-testid': 'results' },
    el('thead', {}, el('tr', {}, ...head.map((name, i) => el('th', { class: i < 2 ? '' : 'num', scope: 'col' }, name)))),
    el('tbody', {}, ...rows.map((row) => resultRow(row, withIntervals))),
  );
}

function resultRow(row: ResultRow, withIntervals: boolean): HTMLElement {
  const num = (value: string | number) => el('td', { class: 'num' }, value);
  return el(
    'tr',
    { class: row.game === TOTAL_ROW ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game },
    el('td', {}, row.agent),
    el('td', {}, row.game),
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
