/** The `view` server's front page: every run of the folder, newest first, refreshed as runs go. */
import type { RunListing } from '../pageData.ts';
import { el, replaceChildren } from './dom.ts';
import * as format from './format.ts';

const POLL_MS = 2000;

export function mountRuns(root: HTMLElement, initial: RunListing[], folder: string, liveUrl: string): void {
  const list = el('div');
  const render = (runs: RunListing[]) =>
    replaceChildren(
      list,
      runs.length === 0
        ? el('p', { class: 'empty' }, `No run in ${folder} yet; start one with: arcbench run <config>. This page shows it as soon as it starts.`)
        : runsTable(runs),
    );
  root.append(el('header', { class: 'top' }, el('h1', {}, 'arcbench runs'), el('p', { class: 'facts' }, folder)), el('section', {}, list));
  render(initial);
  const poll = async () => {
    try {
      const response = await fetch(liveUrl, { cache: 'no-store' });
      if (response.ok) render((await response.json()) as RunListing[]);
    } catch {
      // The server stopped or restarts: the list stays as it is, and the next poll tries again.
    } finally {
      setTimeout(() => void poll(), POLL_MS);
    }
  };
  setTimeout(() => void poll(), POLL_MS);
}

function runsTable(runs: RunListing[]): HTMLElement {
  const head = ['run', 'status', 'started', 'agents', 'games', 'episodes', 'recordings'];
  return el(
    'table',
    { class: 'runs', 'data-testid': 'runs' },
    el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { class: i >= 4 ? 'num' : '' }, h)))),
    el(
      'tbody',
      {},
      ...runs.map((run) =>
        el(
          'tr',
          { 'data-run': run.id, 'data-status': run.status },
          el('td', {}, el('a', { href: run.url }, run.name), el('div', { class: 'sub mono' }, run.id)),
          el(
            'td',
            {},
            el('span', { class: `badge status-${format.slug(run.status)}`, title: run.problem ?? '' }, run.status),
            run.problem && el('div', { class: 'sub' }, run.problem),
          ),
          el('td', {}, format.timestamp(run.started_at)),
          el('td', {}, run.agents.join(', ')),
          el('td', { class: 'num' }, run.games),
          el('td', { class: 'num' }, run.episodes),
          el('td', { class: 'num' }, run.recordings),
        ),
      ),
    ),
  );
}
