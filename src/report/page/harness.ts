/**
 * The report's harness card (what produced the scores beyond the model) and, for a run with factorial
 * arms, each factor's main effect with its interval and the score-against-cost frontier across arms.
 */
import type { ReportCardFact, ReportData, ReportFactorial } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

const fact = (value: ReportCardFact | undefined): string => (value === undefined ? 'not said' : value === null ? '–' : String(value));

export function harnessCardSection(data: ReportData): HTMLElement {
  const card = data.harness_card;
  if (card === null) {
    return el('p', { class: 'note', 'data-testid': 'harness-card' }, 'Harness card: unknown. This run was written by an arcbench that kept no harness card.');
  }
  const runRows = Object.entries(card.run).map(([name, value]) => el('tr', {}, el('th', {}, name), el('td', {}, fact(value))));
  const names = [...new Set(card.agents.flatMap((a) => Object.keys(a.facts)))];
  // A fact whose value differs between agents is what tells them apart: marked so the eye finds it.
  const agentRows = names.map((name) => {
    const values = card.agents.map((a) => fact(a.facts[name]));
    const differs = new Set(values).size > 1;
    return el('tr', { class: differs ? 'differs' : '' }, el('th', {}, name), ...values.map((v) => el('td', {}, v)));
  });
  return el(
    'div',
    { 'data-testid': 'harness-card' },
    el('p', { class: 'note' }, 'What produced these scores beyond the model. Prompts show as hashes; facts that differ between agents are marked.'),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'agent fact'), ...card.agents.map((a) => el('th', {}, a.label)))), el('tbody', {}, ...agentRows)),
    el('h3', {}, 'The run'),
    el('table', {}, el('tbody', {}, ...runRows)),
  );
}

export function factorialSection(factorial: ReportFactorial): HTMLElement {
  return el(
    'div',
    { 'data-testid': 'factorial' },
    ...factorial.designs.map((design) =>
      el(
        'div',
        {},
        el('h3', {}, `Main effects: ${design.of} (${design.arms.length} arms)`),
        design.note && el('p', { class: 'note' }, design.note),
        el(
          'table',
          {},
          el(
            'thead',
            {},
            el('tr', {}, ...['factor', 'level', 'arms', 'mean score', 'effect vs first level', '95% interval', 'paired'].map((h) => el('th', {}, h))),
          ),
          el('tbody', {}, ...design.factors.flatMap((factor) => factor.levels.map((level) => effectRow(factor.factor, level)))),
        ),
      ),
    ),
    el('h3', {}, 'Score against cost'),
    frontierTable(factorial.frontier),
  );
}

type LevelRow = ReportFactorial['designs'][number]['factors'][number]['levels'][number];

function effectRow(factor: string, level: LevelRow): HTMLElement {
  const effect = level.effect;
  const interval = effect?.interval ? `${format.score(effect.interval.low)} … ${format.score(effect.interval.high)}` : '–';
  return el(
    'tr',
    {},
    el('td', {}, factor),
    el('td', {}, String(level.level)),
    el('td', { class: 'num' }, level.arms.length),
    el('td', { class: 'num' }, format.score(level.mean)),
    el('td', { class: 'num' }, effect === null ? 'reference' : `${effect.value >= 0 ? '+' : ''}${format.score(effect.value)}`),
    el('td', { class: 'num' }, interval),
    el('td', {}, effect?.pairing ?? ''),
  );
}

function frontierTable(frontier: ReportFactorial['frontier']): HTMLElement {
  const rows = [...frontier.points]
    .sort((a, b) => (b.mean ?? -1) - (a.mean ?? -1))
    .map((p) =>
      el(
        'tr',
        { class: p.on_frontier ? 'frontier' : '' },
        el('td', {}, p.agent),
        el('td', { class: 'num' }, format.score(p.mean)),
        el('td', { class: 'num' }, p.cost_per_episode === null ? 'unknown' : `$${p.cost_per_episode.toFixed(4)}`),
        el('td', {}, p.on_frontier ? 'on the frontier' : ''),
      ),
    );
  return el(
    'div',
    {},
    frontier.note && el('p', { class: 'note', 'data-testid': 'frontier-note' }, frontier.note),
    el('table', {}, el('thead', {}, el('tr', {}, ...['arm', 'mean score', '$ per episode', ''].map((h) => el('th', {}, h)))), el('tbody', {}, ...rows)),
  );
}
