/**
 * What the run's model calls cost: per agent and game, tokens (input, cached, output, reasoning) and
 * dollars, dollars per level completed, and the view leaderboards use: each agent's mean episode score
 * against its dollars, a point with its score interval as a whisker. Inline SVG, as the other charts.
 */
import { type ResultRow, TOTAL_ROW, type UsageFigures } from '../pageData.ts';
import { agentColour } from './colours.ts';
import { el, svg } from './dom.ts';
import * as format from './format.ts';

export function dollars(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'unknown';
  return `$${value.toFixed(value >= 100 ? 2 : 4)}`;
}

/** Dollars per level completed: unknown without a price, – when no level was completed. */
export function dollarsPerLevel(row: ResultRow): string {
  const cost = row.usage?.cost_usd;
  if (cost === null || cost === undefined) return 'unknown';
  if (!row.levels_completed) return '–';
  return dollars(cost / row.levels_completed);
}

const COLUMNS: Array<[string, (row: ResultRow, usage: UsageFigures) => string]> = [
  ['agent', (row) => row.agent],
  ['game', (row) => row.game],
  ['calls', (_, u) => format.count(u.calls)],
  ['input tokens', (_, u) => format.count(u.input_tokens)],
  ['cached', (_, u) => format.count(u.cached_input_tokens)],
  ['output tokens', (_, u) => format.count(u.output_tokens)],
  ['reasoning', (_, u) => format.count(u.reasoning_tokens)],
  ['dollars', (_, u) => dollars(u.cost_usd)],
  ['$ per level', (row) => dollarsPerLevel(row)],
];

export function costSection(rows: readonly ResultRow[], agents: readonly string[]): HTMLElement {
  const priced = rows.filter((row) => row.usage);
  if (priced.length === 0) return el('p', { class: 'empty', 'data-testid': 'cost-none' }, 'No agent of this run called a model: nothing to cost.');
  const table = el(
    'table',
    { class: 'results cost-table', 'data-testid': 'cost-table' },
    el('thead', {}, el('tr', {}, ...COLUMNS.map(([title], i) => el('th', { class: i > 1 ? 'num' : '' }, title)))),
    el(
      'tbody',
      {},
      ...priced.map((row) =>
        el(
          'tr',
          { class: row.game === TOTAL_ROW ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game },
          ...COLUMNS.map(([, cell], i) => el('td', { class: i > 1 ? 'num' : '' }, cell(row, row.usage!))),
        ),
      ),
    ),
  );
  const totals = priced.filter((row) => row.game === TOTAL_ROW);
  return el('div', { class: 'cost' }, el('div', { class: 'table-scroll' }, table), scoreAgainstCost(totals, agents));
}

const WIDTH = 420;
const HEIGHT = 240;
const LEFT = 44;
const BOTTOM = 30;
const TOP = 10;
const RIGHT = 16;

/** Each agent's total: mean episode score (with its interval) against dollars. */
function scoreAgainstCost(totals: readonly ResultRow[], agents: readonly string[]): HTMLElement {
  // An agent is placed only where both figures are known: an unknown score is never drawn as 0.
  const known = totals.filter((row) => row.mean !== null && row.usage?.cost_usd !== null && row.usage?.cost_usd !== undefined);
  if (known.length === 0)
    return el('p', { class: 'note' }, 'Score against cost: no agent has both a known score and a known cost (set pricing in its params).');
  const maxCost = niceCeiling(Math.max(...known.map((row) => row.usage!.cost_usd!)));
  const maxScore = niceCeiling(Math.max(1, ...known.map((row) => Math.max(row.mean!, row.interval?.high ?? 0))));
  const x = (cost: number) => LEFT + (cost / maxCost) * (WIDTH - LEFT - RIGHT);
  const y = (score: number) => HEIGHT - BOTTOM - (Math.max(0, score) / maxScore) * (HEIGHT - BOTTOM - TOP);
  const points = known.map((row) => {
    const cx = x(row.usage!.cost_usd!);
    const colour = agentColour(agents.indexOf(row.agent));
    return svg(
      'g',
      { class: 'cost-point', 'data-agent': row.agent },
      svg('title', {}, `${row.agent}: mean score ${format.score(row.mean!)} for ${dollars(row.usage!.cost_usd)}`),
      row.interval &&
        svg('line', { x1: cx, x2: cx, y1: y(row.interval.low), y2: y(row.interval.high), class: 'cost-interval', stroke: colour, 'stroke-width': 2 }),
      svg('circle', { cx, cy: y(row.mean!), r: 5, fill: colour }),
      svg('text', { x: cx + 8, y: y(row.mean!), 'dominant-baseline': 'middle', class: 'label' }, row.agent),
    );
  });
  const axes = [
    svg('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: HEIGHT - BOTTOM, y2: HEIGHT - BOTTOM, class: 'grid-line' }),
    svg('line', { x1: LEFT, x2: LEFT, y1: TOP, y2: HEIGHT - BOTTOM, class: 'grid-line' }),
    ...[0, maxCost / 2, maxCost].map((v) =>
      svg('text', { x: x(v), y: HEIGHT - BOTTOM + 14, 'text-anchor': 'middle', class: 'tick', 'data-axis': 'cost' }, axisDollars(v, maxCost)),
    ),
    ...[0, maxScore / 2, maxScore].map((v) =>
      svg('text', { x: LEFT - 6, y: y(v), 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'tick' }, String(v)),
    ),
    svg('text', { x: (LEFT + WIDTH) / 2, y: HEIGHT - 2, 'text-anchor': 'middle', class: 'tick' }, 'dollars'),
  ];
  return el(
    'figure',
    { class: 'chart', 'data-testid': 'score-cost-chart' },
    el('figcaption', {}, 'Score against cost'),
    svg(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img', 'aria-label': 'mean episode score against dollars per agent' },
      ...axes,
      ...points,
    ),
    el('p', { class: 'note' }, 'Each agent: its mean episode score (the line: its 95% interval) against what its model calls cost.'),
  );
}

/**
 * A tick of the dollars axis with the digits its scale needs and no more: `$0`, `$0.025`, `$1`, `$250`
 * (the table's four decimals read `$0.0000`, `$1.0000` on an axis).
 */
function axisDollars(value: number, max: number): string {
  if (value === 0) return '$0';
  const decimals = Math.max(0, 2 - Math.floor(Math.log10(max)));
  return `$${Number(value.toFixed(decimals))}`;
}

/** 1, 2, 5 × a power of ten at or above `value` (a positive number). */
function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= value * (1 - 1e-12)) ?? 10 * power;
}
