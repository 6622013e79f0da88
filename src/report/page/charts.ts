/**
 * One bar chart per game comparing the agents' mean episode scores, with the confidence interval as a
 * whisker when the run recorded one. Every chart has the same scale, so that bars compare across games
 * too, and the note under them says so. Inline SVG: no library, no network.
 */
import { TOTAL_ROW, type ResultRow } from '../pageData.ts';
import { el, svg } from './dom.ts';
import * as format from './format.ts';
import { agentColour } from './colours.ts';

const WIDTH = 360;
const BAR = 20;
const GAP = 8;
const LABEL = 96;
const VALUE = 44;
const TOP = 8;
const AXIS = 22;

export function gameCharts(rows: readonly ResultRow[], agents: readonly string[], nameOf: (game: string) => string = String): HTMLElement {
  const gameRows = rows.filter((r) => r.game !== TOTAL_ROW);
  const games = [...new Set(gameRows.map((r) => r.game))];
  if (games.length === 0) return el('p', { class: 'empty' }, 'No finished episode yet.');
  const withIntervals = rows.some((r) => r.interval !== null);
  const scaleMax = niceCeiling(Math.max(1, ...gameRows.map((r) => Math.max(r.mean ?? 0, r.interval?.high ?? 0))));
  return el(
    'div',
    { class: 'charts' },
    ...games.map((game) =>
      chart(
        game,
        nameOf(game),
        rows.filter((r) => r.game === game),
        agents,
        scaleMax,
      ),
    ),
    el(
      'p',
      { class: 'note', 'data-testid': 'charts-note' },
      `${withIntervals ? 'Bars: mean episode score; whiskers: its 95% interval.' : 'Bars: mean episode score (no intervals in this run).'} Every chart has the same scale, 0 to ${trimNumber(scaleMax)}.`,
    ),
  );
}

function chart(game: string, name: string, rows: readonly ResultRow[], agents: readonly string[], scaleMax: number): HTMLElement {
  const plot = WIDTH - LABEL - VALUE;
  const x = (value: number) => LABEL + (Math.max(0, value) / scaleMax) * plot;
  const height = TOP + rows.length * (BAR + GAP) + AXIS;
  const bars = rows.map((row, i) => {
    const y = TOP + i * (BAR + GAP);
    const colour = agentColour(agents.indexOf(row.agent));
    return svg(
      'g',
      { 'data-agent': row.agent },
      svg(
        'title',
        {},
        `${row.agent}: mean ${row.mean === null ? 'unknown' : format.score(row.mean)}${row.interval ? `, interval ${format.score(row.interval.low)}–${format.score(row.interval.high)}` : ''}`,
      ),
      svg('text', { x: LABEL - 6, y: y + BAR / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'label' }, row.agent),
      // An unknown mean gets no bar: a bar of 0 would say 0.
      row.mean !== null && svg('rect', { x: LABEL, y, width: Math.max(1, x(row.mean) - LABEL), height: BAR, fill: colour, rx: 2 }),
      row.interval && whisker(x(row.interval.low), x(row.interval.high), y + BAR / 2),
      svg(
        'text',
        { x: WIDTH - VALUE + 6, y: y + BAR / 2, 'dominant-baseline': 'middle', class: 'value' },
        row.mean === null ? 'unknown' : format.score(row.mean),
      ),
    );
  });
  const axisY = TOP + rows.length * (BAR + GAP);
  const ticks = [0, scaleMax / 2, scaleMax].map((v) =>
    svg(
      'g',
      {},
      svg('line', { x1: x(v), x2: x(v), y1: TOP - 4, y2: axisY, class: 'grid-line' }),
      svg('text', { x: x(v), y: axisY + 14, 'text-anchor': 'middle', class: 'tick' }, trimNumber(v)),
    ),
  );
  return el(
    'figure',
    { class: 'chart', 'data-game': game },
    el('figcaption', {}, name),
    svg(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: 'img', 'aria-label': `mean episode score per agent on ${game}` },
      ...ticks,
      ...bars,
    ),
  );
}

function whisker(from: number, to: number, y: number): SVGElement {
  return svg(
    'g',
    { class: 'whisker' },
    svg('line', { x1: from, x2: to, y1: y, y2: y }),
    svg('line', { x1: from, x2: from, y1: y - 6, y2: y + 6 }),
    svg('line', { x1: to, x2: to, y1: y - 6, y2: y + 6 }),
  );
}

/** 1, 2, 5 × a power of ten at or above `value`: an axis that ends on a round number. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= value) ?? 10 * power;
}

function trimNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 1 ? 2 : 1);
}
