/** The run's header (name, status, key figures) and its details (agents, provenance, config). */
import { IN_PROGRESS, type ReportData, type ReportGitState, TOTAL_ROW } from '../pageData.ts';
import { el } from './dom.ts';
import * as format from './format.ts';

export function runHeader(data: ReportData, live: boolean): HTMLElement {
  const run = data.run;
  const totals = run.totals;
  const episodes = totals?.episodes ?? data.episodes.filter((e) => e.outcome !== IN_PROGRESS).length;
  const actions = totals?.actions ?? data.episodes.reduce((sum, e) => sum + e.actions, 0);
  const facts = [
    `started ${format.timestamp(run.started_at)}`,
    run.finished_at !== null && `took ${format.seconds(format.elapsed(run.started_at, run.finished_at))}`,
    run.target !== null && `target ${run.target}`,
    `${format.count(episodes)} episodes`,
    `${format.count(actions)} actions`,
    totals !== null && `${totals.errors} errors`,
  ].filter((fact): fact is string => typeof fact === 'string');
  return el(
    'header',
    { class: 'top' },
    el(
      'h1',
      { 'data-testid': 'run-name' },
      run.name,
      ' ',
      el('span', { class: `badge status-${format.slug(run.status)}`, 'data-testid': 'run-status' }, run.status),
    ),
    el('p', { class: 'facts' }, facts.join(' · ')),
    live ? el('p', { class: 'live', 'data-testid': 'live' }, 'live: this page follows the run as it goes') : null,
  );
}

export function runDetails(data: ReportData): HTMLElement {
  return el(
    'div',
    { class: 'details-grid' },
    el('div', {}, el('h3', {}, 'Agents'), agentsTable(data)),
    el('div', {}, el('h3', {}, 'Provenance'), provenanceList(data)),
    el(
      'details',
      { class: 'config' },
      el('summary', {}, 'Config (secrets removed)'),
      el('pre', { 'data-testid': 'config' }, JSON.stringify(data.run.config, null, 2)),
    ),
  );
}

/** A card's score is each game's best episode: a best draw, shown with the mean episode score beside it, which is what to rank on. */
const AGENT_TITLES: Record<string, string> = {
  'service score': "the card's score as the service returned it: per game the best episode, a best draw",
  'local score': "the card's score scored here from the episodes: per game the best episode, a best draw",
  'mean episode score': 'the mean over games of the mean episode score: the estimate to rank on',
};

const meanOf = (data: ReportData, agent: string) => data.results.find((row) => row.agent === agent && row.game === TOTAL_ROW)?.mean ?? null;

function agentsTable(data: ReportData): HTMLElement {
  return el(
    'table',
    { class: 'agents' },
    el(
      'thead',
      {},
      el('tr', {}, ...['agent', 'use', 'card', 'service score', 'local score', 'mean episode score'].map((h) => el('th', { title: AGENT_TITLES[h] }, h))),
    ),
    el(
      'tbody',
      {},
      ...data.agents.map((agent) =>
        el(
          'tr',
          {},
          el('td', {}, agent.label),
          el('td', {}, agent.use ?? '–'),
          el('td', { class: 'mono' }, agent.card_id ?? '–'),
          el(
            'td',
            { class: 'num' },
            agent.close_error !== null ? el('span', { class: 'bad', title: agent.close_error }, 'close failed') : format.score(agent.service_score),
          ),
          el(
            'td',
            { class: 'num', title: agent.score_differences.join('\n') },
            format.score(agent.local_score),
            agent.score_differences.length > 0 ? ' ⚠' : '',
          ),
          el('td', { class: 'num', 'data-testid': 'agent-mean' }, format.score(meanOf(data, agent.label))),
        ),
      ),
    ),
  );
}

function provenanceList(data: ReportData): HTMLElement {
  const provenance = data.run.provenance;
  const entries: Array<[string, string]> = [
    ['folder', data.run.folder],
    ['config file', data.run.config_file ?? '–'],
    ['git', provenance === null ? '–' : gitLine(provenance.experiment_git)],
    [
      'arcbench',
      provenance === null ? '–' : `${provenance.arcbench_version}${provenance.arcbench_git ? ` (checkout ${gitLine(provenance.arcbench_git)})` : ''}`,
    ],
    ['node', provenance?.node_version ?? '–'],
    ['platform', provenance?.platform ?? '–'],
    ['seed', provenance === null ? '–' : String(provenance.seed)],
    ['command', provenance === null ? '–' : `arcbench ${provenance.argv.join(' ')}`],
    ['report written', format.timestamp(data.generated_at)],
  ];
  return el('dl', { class: 'provenance', 'data-testid': 'provenance' }, ...entries.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
}

function gitLine(git: ReportGitState): string {
  return git.sha ? `${git.sha.slice(0, 12)}${git.dirty ? ' (uncommitted changes)' : ''}` : 'not a git checkout';
}
