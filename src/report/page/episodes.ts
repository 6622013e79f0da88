/**
 * The episodes list: filter by agent, game and outcome, sort by any column (click its header, again to
 * reverse), and open an episode's recording in the viewer. Filters and order survive live updates.
 */
import type { EpisodeRow } from '../pageData.ts';
import { el, replaceChildren } from './dom.ts';
import * as format from './format.ts';
import { usageColumns } from './episodeCost.ts';

interface Column {
  key: string;
  title: string;
  numeric: boolean;
  value(row: EpisodeRow): string | number;
  cell(row: EpisodeRow): string | Node;
}

/** The columns; the game's and the episode number's cells depend on the page (titles, links). */
const columns = (options: EpisodeListOptions): Column[] => [
  { key: 'agent', title: 'agent', numeric: false, value: (r) => r.agent, cell: (r) => r.agent },
  { key: 'game', title: 'game', numeric: false, value: (r) => r.game_id, cell: (r) => options.nameOf(r.game_id) },
  {
    key: 'episode',
    title: '#',
    numeric: true,
    value: (r) => r.episode,
    cell: (r) => {
      const link = options.linkOf(r);
      return link === null
        ? String(r.episode)
        : el('a', { href: `#${link}`, class: 'episode-link', title: 'link to this episode in the viewer' }, String(r.episode));
    },
  },
  {
    key: 'outcome',
    title: 'outcome',
    numeric: false,
    value: (r) => r.outcome,
    cell: (r) => el('span', { class: `outcome outcome-${format.slug(r.outcome)}`, title: r.error ?? '' }, format.outcome(r.outcome)),
  },
  { key: 'score', title: 'score', numeric: true, value: (r) => r.score ?? -1, cell: (r) => format.score(r.score) },
  { key: 'levels', title: 'levels', numeric: true, value: (r) => r.levels_completed, cell: (r) => `${r.levels_completed}/${r.level_count}` },
  { key: 'actions', title: 'actions', numeric: true, value: (r) => r.actions, cell: (r) => format.count(r.actions) },
  { key: 'resets', title: 'resets', numeric: true, value: (r) => r.resets, cell: (r) => String(r.resets) },
  { key: 'seconds', title: 'time', numeric: true, value: (r) => r.wall_seconds ?? -1, cell: (r) => format.seconds(r.wall_seconds) },
  ...usageColumns,
];

type Filter = 'agent' | 'game' | 'outcome';
const FILTER_VALUE: Record<Filter, (row: EpisodeRow) => string> = { agent: (r) => r.agent, game: (r) => r.game_id, outcome: (r) => r.outcome };

export interface EpisodeListOptions {
  /** Whether the row's recording can be opened here, and if not, why (a tooltip). */
  playable(row: EpisodeRow): { ok: boolean; why: string };
  onReplay(row: EpisodeRow): void;
  /** The game as the page names it (title and id). */
  nameOf(gameId: string): string;
  /** The URL fragment that opens the row in the viewer (without `#`), or null when it has no recording to open. */
  linkOf(row: EpisodeRow): string | null;
}

export class EpisodeList {
  readonly element = el('div', { class: 'episodes' });
  private readonly filters: Record<Filter, HTMLSelectElement> = {
    agent: el('select', { 'data-testid': 'filter-agent', 'aria-label': 'agent' }),
    game: el('select', { 'data-testid': 'filter-game', 'aria-label': 'game' }),
    outcome: el('select', { 'data-testid': 'filter-outcome', 'aria-label': 'outcome' }),
  };
  private readonly count = el('span', { class: 'count', 'data-testid': 'episode-count' });
  private readonly table = el('table', { class: 'episode-table', 'data-testid': 'episodes' });
  private rows: EpisodeRow[] = [];
  private sortKey = 'agent';
  private descending = false;
  private readonly columns: Column[];

  constructor(private readonly options: EpisodeListOptions) {
    this.columns = columns(options);
    const bar = el('div', { class: 'filters' });
    for (const name of Object.keys(this.filters) as Filter[]) {
      this.filters[name].addEventListener('change', () => this.render());
      bar.append(el('label', {}, `${name} `, this.filters[name]));
    }
    bar.append(this.count);
    this.element.append(bar, el('div', { class: 'table-scroll' }, this.table));
  }

  update(rows: EpisodeRow[]): void {
    this.rows = rows;
    for (const name of Object.keys(this.filters) as Filter[])
      refillSelect(
        this.filters[name],
        [...new Set(rows.map(FILTER_VALUE[name]))].sort(),
        name === 'outcome' ? format.outcome : name === 'game' ? this.options.nameOf : String,
      );
    this.render();
  }

  private visibleRows(): EpisodeRow[] {
    const chosen = (name: Filter) => this.filters[name].value;
    const shown = this.rows.filter((row) =>
      (Object.keys(this.filters) as Filter[]).every((name) => chosen(name) === '' || FILTER_VALUE[name](row) === chosen(name)),
    );
    const column = this.columns.find((c) => c.key === this.sortKey) ?? this.columns[0]!;
    const order = this.descending ? -1 : 1;
    // Ties keep agent, game, episode order, so a sort by outcome still reads in a stable order.
    return shown.sort(
      (a, b) => order * compare(column.value(a), column.value(b)) || compare(a.agent, b.agent) || compare(a.game_id, b.game_id) || a.episode - b.episode,
    );
  }

  private render(): void {
    const rows = this.visibleRows();
    replaceChildren(this.count, `${rows.length} of ${this.rows.length} episodes`);
    replaceChildren(
      this.table,
      el('thead', {}, el('tr', {}, ...this.columns.map((c) => this.header(c)), el('th', {}, 'replay'))),
      el('tbody', {}, ...rows.map((row) => this.row(row))),
    );
  }

  private header(column: Column): HTMLElement {
    const sorted = column.key === this.sortKey;
    const arrow = sorted ? (this.descending ? ' ▼' : ' ▲') : '';
    return el(
      'th',
      {
        class: column.numeric ? 'num sortable' : 'sortable',
        scope: 'col',
        'aria-sort': sorted ? (this.descending ? 'descending' : 'ascending') : 'none',
        'data-sort': column.key,
      },
      el('button', { type: 'button', onclick: () => this.sortBy(column.key) }, column.title + arrow),
    );
  }

  private sortBy(key: string): void {
    this.descending = key === this.sortKey ? !this.descending : false;
    this.sortKey = key;
    this.render();
  }

  private row(row: EpisodeRow): HTMLElement {
    const playable = this.options.playable(row);
    const button = el(
      'button',
      { type: 'button', class: 'replay-button', disabled: !playable.ok, title: playable.why, onclick: () => this.options.onReplay(row) },
      'replay',
    );
    return el(
      'tr',
      { 'data-agent': row.agent, 'data-game': row.game_id, 'data-episode': row.episode, 'data-outcome': row.outcome },
      ...this.columns.map((c) => el('td', { class: c.numeric ? 'num' : '' }, c.cell(row))),
      el('td', {}, button),
    );
  }
}

function refillSelect(select: HTMLSelectElement, values: string[], label: (value: string) => string): void {
  const keep = select.value;
  replaceChildren(select, el('option', { value: '' }, 'all'), ...values.map((v) => el('option', { value: v }, label(v))));
  select.value = values.includes(keep) ? keep : '';
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
