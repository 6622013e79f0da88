/**
 * The report's levels section: per agent and game, how often each level was solved across episodes and
 * repeats, and the actions and seconds spent on it; then each agent's level-solve curve over actions (levels
 * completed, summed over its episodes, against the actions each episode had taken).
 */
import { TOTAL_ROW, type ResultRow, type SolveCurve } from '../pageData.ts';
import { agentColour } from './colours.ts';
import { el, svg } from './dom.ts';

const WIDTH = 520;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 10, bottom: 30 };

function consistencyTable(rows: readonly ResultRow[], nameOf: (game: string) => string): HTMLElement {
  const games = rows.filter((row) => row.game !== TOTAL_ROW && row.level_solves !== undefined && row.episodes > 0);
  const head = [
    'agent',
    'game',
    'solved per level (episodes)',
    'solved every time',
    'actions per level (mean, when solved)',
    'seconds per level (mean, when solved)',
  ];
  return el(
    'table',
    { class: 'results', 'data-testid': 'level-consistency' },
    el('thead', {}, el('tr', {}, ...head.map((name) => el('th', { scope: 'col' }, name)))),
    el(
      'tbody',
      {},
      ...games.map((row) => {
        const cells = row.levels_detail ?? { solved: '–', steady: '–', actions: '–', seconds: 'unknown' };
        return el(
          'tr',
          { 'data-agent': row.agent, 'data-game': row.game },
          el('td', {}, row.agent),
          el('td', {}, nameOf(row.game)),
          el('td', {}, cells.solved),
          el('td', { class: 'num' }, cells.steady),
          el('td', {}, cells.actions),
          el('td', {}, cells.seconds),
        );
      }),
    ),
  );
}

function solveCurveChart(curves: readonly SolveCurve[], agents: readonly string[]): SVGElement {
  const maxActions = Math.max(1, ...curves.flatMap((c) => c.points.map((p) => p.actions)));
  const x = (actions: number) => PAD.left + (actions / maxActions) * (WIDTH - PAD.left - PAD.right);
  const y = (share: number) => HEIGHT - PAD.bottom - share * (HEIGHT - PAD.top - PAD.bottom);
  const lines = curves.map((curve) => {
    const share = (solved: number) => (curve.levels === 0 ? 0 : solved / curve.levels);
    // A step line: the share holds until the next level is completed.
    const steps = curve.points.flatMap((p, i) =>
      i === 0
        ? [`${x(p.actions)},${y(share(p.solved))}`]
        : [`${x(p.actions)},${y(share(curve.points[i - 1]!.solved))}`, `${x(p.actions)},${y(share(p.solved))}`],
    );
    return svg(
      'polyline',
      { points: steps.join(' '), fill: 'none', stroke: agentColour(agents.indexOf(curve.agent)), 'stroke-width': 2, 'data-agent': curve.agent },
      svg('title', {}, `${curve.agent}: ${curve.points[curve.points.length - 1]?.solved ?? 0} of ${curve.levels} levels completed`),
    );
  });
  const axis = [0, 0.5, 1].map((v) =>
    svg('text', { x: PAD.left - 6, y: y(v), 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'tick' }, `${v * 100}%`),
  );
  const xTicks = [0, maxActions / 2, maxActions].map((v) =>
    svg('text', { x: x(v), y: HEIGHT - 10, 'text-anchor': 'middle', class: 'tick' }, String(Math.round(v))),
  );
  return svg(
    'svg',
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      width: WIDTH,
      height: HEIGHT,
      role: 'img',
      'aria-label': 'levels completed against actions, per agent',
      'data-testid': 'solve-curve',
    },
    ...axis,
    ...xTicks,
    ...lines,
  );
}

export function levelsSection(
  rows: readonly ResultRow[],
  curves: readonly SolveCurve[],
  agents: readonly string[],
  nameOf: (game: string) => string,
): HTMLElement {
  if (!rows.some((row) => row.level_solves !== undefined && row.episodes > 0)) return el('p', { class: 'empty' }, 'No per-level counts in this run.');
  return el(
    'div',
    {},
    consistencyTable(rows, nameOf),
    el(
      'p',
      { class: 'note' },
      'How often each level was solved across the episodes and repeats; an agent that solves a level in one draw of five is not one that solves it.',
    ),
    el(
      'figure',
      { class: 'chart' },
      el('figcaption', {}, 'Levels completed against actions taken (share of all levels of the episodes, per agent)'),
      solveCurveChart(curves, agents),
      legend(curves, agents),
    ),
  );
}

/** Which line is which agent: its colour and name. */
function legend(curves: readonly SolveCurve[], agents: readonly string[]): HTMLElement {
  return el(
    'p',
    { class: 'note', 'data-testid': 'solve-curve-legend' },
    ...curves.flatMap((curve) => [el('span', { style: `color: ${agentColour(agents.indexOf(curve.agent))}` }, '━━ '), `${curve.agent}   `]),
  );
}
