/**
 * `arcbench compare --html`: two runs compared, as a page like the report's. The table gives per agent
 * and game both means, the difference with its 95% interval, how episodes paired and the verdict; a
 * chart per agent shows the differences around zero, the interval as a whisker.
 */
import type { ComparisonData, ComparisonRow } from '../pageData.ts';
import { el, svg } from './dom.ts';
import * as format from './format.ts';

export function mountComparison(root: HTMLElement, data: ComparisonData, generatedAt: string): void {
  const regressions = data.rows.filter((row) => row.regression).length;
  const gate = data.fail_on_regression
    ? data.failed
      ? `gate failed: ${regressions} regression(s)`
      : 'gate passed: no regression'
    : `${regressions} regression(s); the gate was not asked for`;
  root.append(
    el(
      'header',
      { class: 'top' },
      el(
        'h1',
        { 'data-testid': 'comparison-title' },
        'Comparison ',
        el('span', { class: `badge status-${gateStatus(data, regressions)}`, 'data-testid': 'gate' }, gate),
      ),
      el(
        'p',
        { class: 'facts' },
        `baseline ${data.baseline} · candidate ${data.candidate} · threshold ${data.threshold} points · written ${format.timestamp(generatedAt)}`,
      ),
    ),
    // What differs between the harnesses comes before any score: a score difference is theirs too.
    el(
      'section',
      { 'data-testid': 'harness-cards' },
      el('h2', {}, 'Harness cards'),
      ...(data.harness_card_lines ?? ['Not compared: this page was written by an arcbench without harness cards.']).map((line) =>
        el('p', { class: line.startsWith('  ') ? 'note' : '' }, line.trim()),
      ),
    ),
    el('section', {}, el('h2', {}, 'Differences'), comparisonTable(data.rows, data.threshold), ...data.notes.map((note) => el('p', { class: 'note' }, note))),
    el(
      'section',
      {},
      el('h2', {}, 'By agent'),
      el(
        'div',
        { class: 'charts' },
        ...agentsOf(data.rows).map((agent) =>
          differenceChart(
            agent,
            data.rows.filter((r) => r.agent === agent),
            data.threshold,
          ),
        ),
      ),
    ),
  );
}

/** Green only when nothing regressed: a regression the gate was not asked to fail on is a warning, not a pass. */
function gateStatus(data: ComparisonData, regressions: number): 'failed' | 'partial' | 'completed' {
  if (data.failed) return 'failed';
  return regressions > 0 ? 'partial' : 'completed';
}

function agentsOf(rows: readonly ComparisonRow[]): string[] {
  return [...new Set(rows.map((row) => row.agent))];
}

/** `+1.25`, `−0.40`; a value that rounds to zero is `0.00`, never `−0.00`. */
function signed(value: number): string {
  const rounded = value.toFixed(2);
  if (Number(rounded) === 0) return '0.00';
  return `${value > 0 ? '+' : '−'}${rounded.replace('-', '')}`;
}

/** Worse (its interval below zero) but not by more than the threshold: the verdict and the gate both hold. */
const withinThreshold = (row: ComparisonRow) => row.verdict === 'worse' && !row.regression;

function comparisonTable(rows: readonly ComparisonRow[], threshold: number): HTMLElement {
  const head = ['agent', 'game', 'baseline mean', 'candidate mean', 'difference', '95% interval', 'episodes', 'pairing', 'verdict'];
  return el(
    'table',
    { class: 'results', 'data-testid': 'comparison' },
    el('thead', {}, el('tr', {}, ...head.map((name, i) => el('th', { class: i >= 2 && i <= 6 ? 'num' : '' }, name)))),
    el(
      'tbody',
      {},
      ...rows.map((row) =>
        el(
          'tr',
          { class: row.game === 'total' ? 'total' : '', 'data-agent': row.agent, 'data-game': row.game, 'data-verdict': row.verdict },
          el('td', {}, row.agent),
          el('td', {}, row.game),
          el('td', { class: 'num' }, format.score(row.baseline.mean)),
          el('td', { class: 'num' }, format.score(row.candidate.mean)),
          el('td', { class: 'num' }, signed(row.difference.value)),
          el(
            'td',
            { class: 'num' },
            row.difference.interval === null ? 'n/a' : `${signed(row.difference.interval.low)} – ${signed(row.difference.interval.high)}`,
          ),
          el('td', { class: 'num' }, `${row.baseline.episodes} / ${row.candidate.episodes}`),
          el('td', { title: row.note ?? '' }, row.pairing),
          el(
            'td',
            {},
            el(
              'span',
              {
                class: `outcome verdict-${format.slug(row.verdict)}${row.regression ? ' regression' : ''}`,
                title: withinThreshold(row) ? `the interval does not lie wholly below −${threshold} points, the threshold` : '',
              },
              row.regression ? `${row.verdict} (regression)` : withinThreshold(row) ? `${row.verdict} (within the threshold: no regression)` : row.verdict,
            ),
          ),
        ),
      ),
    ),
  );
}

const WIDTH = 380;
const LABEL = 110;
const BAR = 18;
const GAP = 8;

/** Horizontal bars from zero, one per game (and the total), scaled to the widest interval. */
function differenceChart(agent: string, rows: readonly ComparisonRow[], threshold: number): HTMLElement {
  const reach = Math.max(
    1,
    threshold,
    ...rows.flatMap((r) => [Math.abs(r.difference.value), Math.abs(r.difference.interval?.low ?? 0), Math.abs(r.difference.interval?.high ?? 0)]),
  );
  const half = (WIDTH - LABEL - 10) / 2;
  const zero = LABEL + half;
  const x = (value: number) => zero + (value / reach) * half;
  const height = rows.length * (BAR + GAP) + 20;
  const colour = (row: ComparisonRow) => (row.verdict === 'better' ? '#4FCC30' : row.verdict === 'worse' ? '#F93C31' : '#999999');
  const bars = rows.map((row, i) => {
    const y = 4 + i * (BAR + GAP);
    const value = row.difference.value;
    return svg(
      'g',
      { 'data-game': row.game },
      svg('text', { x: LABEL - 6, y: y + BAR / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'label' }, row.game),
      svg('rect', { x: Math.min(x(value), zero), y, width: Math.max(1, Math.abs(x(value) - zero)), height: BAR, fill: colour(row), rx: 2 }),
      row.difference.interval &&
        svg(
          'g',
          { class: 'whisker' },
          svg('line', { x1: x(row.difference.interval.low), x2: x(row.difference.interval.high), y1: y + BAR / 2, y2: y + BAR / 2 }),
          svg('line', { x1: x(row.difference.interval.low), x2: x(row.difference.interval.low), y1: y + 3, y2: y + BAR - 3 }),
          svg('line', { x1: x(row.difference.interval.high), x2: x(row.difference.interval.high), y1: y + 3, y2: y + BAR - 3 }),
        ),
    );
  });
  const axis = [
    svg('line', { x1: zero, x2: zero, y1: 0, y2: height - 16, class: 'zero-line' }),
    threshold > 0 && svg('line', { x1: x(-threshold), x2: x(-threshold), y1: 0, y2: height - 16, class: 'threshold-line' }),
    svg('text', { x: zero, y: height - 2, 'text-anchor': 'middle', class: 'tick' }, '0'),
    svg('text', { x: x(-reach), y: height - 2, 'text-anchor': 'start', class: 'tick' }, signed(-reach)),
    svg('text', { x: x(reach), y: height - 2, 'text-anchor': 'end', class: 'tick' }, signed(reach)),
  ];
  return el(
    'figure',
    { class: 'chart', 'data-agent': agent },
    el('figcaption', {}, agent),
    svg(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: 'img', 'aria-label': `score differences of ${agent}, candidate minus baseline` },
      ...axis.filter((a) => a !== false),
      ...bars,
    ),
  );
}
