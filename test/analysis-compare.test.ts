import { describe, expect, it } from 'vitest';
import { renderComparisonMarkdown, renderComparisonTerminal } from '../src/analysis/comparisonTable.ts';
import { compareRuns, RunsNotComparableError } from '../src/analysis/compareRuns.ts';
import { regressions } from '../src/analysis/gate.ts';
import type { RunEpisodes, ScoredEpisode } from '../src/analysis/episodeSample.ts';
import { firstOf } from './support/lists.ts';

/** Episodes of one agent on one game, scores as given, episode i with seed 1000 + i. */
const episodes = (agent: string, game: string, scores: readonly number[], seedBase = 1000): ScoredEpisode[] =>
  scores.map((score, episode) => ({ agent, game, episode, seed: seedBase + episode, score }));

const run = (name: string, agents: string[], ...lists: ScoredEpisode[][]): RunEpisodes => ({ name, agents, episodes: lists.flat() });

const SCORES_A = [12, 30, 0, 45, 8, 22, 17, 3];
const SCORES_B = [60, 71, 55, 80, 66, 59, 70, 62];
const baseline = run(
  'base',
  ['explorer', 'random'],
  episodes('explorer', 'crat-1', SCORES_A),
  episodes('explorer', 'lamp-1', SCORES_B),
  episodes('random', 'crat-1', [1, 0, 2, 0]),
);

/** The baseline's explorer 10 points worse on every episode; its random agent as it was. */
const tenPointsWorse = () =>
  run(
    'worse',
    ['explorer', 'random'],
    episodes(
      'explorer',
      'crat-1',
      SCORES_A.map((s) => s - 10),
    ),
    episodes(
      'explorer',
      'lamp-1',
      SCORES_B.map((s) => s - 10),
    ),
    episodes('random', 'crat-1', [1, 0, 2, 0]),
  );

describe('compareRuns', () => {
  it('an identical rerun compares as identical everywhere and fails no gate', () => {
    const comparison = compareRuns(baseline, run('again', ['explorer', 'random'], ...structuredClone([baseline.episodes as ScoredEpisode[]])));
    expect(comparison.rows.map((r) => `${r.agent} ${r.game} ${r.verdict}`)).toEqual([
      'explorer crat-1 identical',
      'explorer lamp-1 identical',
      'explorer total identical',
      'random crat-1 identical',
      'random total identical',
    ]);
    expect(comparison.rows.every((r) => r.pairing === 'paired' && r.difference.value === 0)).toBe(true);
    expect(regressions(comparison, { perGame: true })).toEqual([]);
  });

  it('a candidate 10 points worse on every episode is worse, and a regression up to a threshold of 10', () => {
    const worse = tenPointsWorse();
    const total = compareRuns(baseline, worse).rows.find((r) => r.agent === 'explorer' && r.game === 'total')!;
    expect(total.verdict).toBe('worse');
    expect(total.difference.value).toBeCloseTo(-10, 12);
    // Every pair differs by exactly −10: the paired interval is the point −10.
    expect(total.difference.interval!.low).toBeCloseTo(-10, 12);
    expect(total.difference.interval!.high).toBeCloseTo(-10, 12);
    expect(regressions(compareRuns(baseline, worse, { threshold: 9.5 })).map((r) => r.agent)).toEqual(['explorer']);
    expect(regressions(compareRuns(baseline, worse, { threshold: 10.5 }))).toEqual([]);
  });

  it('worse within the threshold: the notes say why it is no regression', () => {
    const worse = tenPointsWorse();
    const text = renderComparisonTerminal(compareRuns(baseline, worse, { threshold: 10.5 }));
    expect(text).toContain(
      '- explorer total: worse (−10.00 [−10.00, −10.00]) but no regression: the interval does not clear the threshold (its upper end −10.00 is not below −10.5)',
    );
    expect(text).toContain('- no regression (agent totals;');
    // Past the threshold, no such sentence: it is a regression.
    expect(renderComparisonTerminal(compareRuns(baseline, worse, { threshold: 9.5 }))).not.toContain('but no regression');
  });

  it('warns when the agent behind a label changed between the runs, and only then', () => {
    const setups = { explorer: { use: 'explorer', params: { max_clicks: 5, depth: 2 } }, random: { use: 'random', params: {} } };
    const before = { ...baseline, setups };
    const same = { ...baseline, name: 'same', setups: { ...setups, explorer: { use: 'explorer', params: { depth: 2, max_clicks: 5 } } } };
    expect(compareRuns(before, same).notes).toEqual([]);
    const changed = {
      ...baseline,
      name: 'changed',
      setups: { explorer: { use: 'explorer', params: { max_clicks: 9, depth: 2 } }, random: { use: './agents/mine.ts', params: {} } },
    };
    expect(compareRuns(before, changed).notes).toEqual([
      'warning: explorer is another agent in the candidate (params max_clicks 5 → 9); its rows compare two agents',
      'warning: random is another agent in the candidate (use random → ./agents/mine.ts); its rows compare two agents',
    ]);
    expect(renderComparisonTerminal(compareRuns(before, changed))).toContain('- warning: random is another agent in the candidate');
  });

  it('better when the whole interval is above zero; no significant change when it spans zero', () => {
    const mixed = run(
      'mixed',
      ['explorer'],
      episodes(
        'explorer',
        'crat-1',
        SCORES_A.map((s) => s + 5),
      ),
      episodes(
        'explorer',
        'lamp-1',
        SCORES_B.map((s, i) => s + (i % 2 === 0 ? 9 : -9)),
      ),
    );
    const rows = compareRuns(baseline, mixed).rows;
    expect(rows.find((r) => r.game === 'crat-1')!.verdict).toBe('better');
    expect(rows.find((r) => r.game === 'lamp-1')!.verdict).toBe('no significant change');
  });

  it('a game regression fails the gate only with per-game gating', () => {
    // crat is 8 points worse on every episode; lamp swings ±30 around the baseline, so the total's
    // interval spans zero.
    const oneGameWorse = run(
      'cand',
      ['explorer'],
      episodes(
        'explorer',
        'crat-1',
        SCORES_A.map((s) => s - 8),
      ),
      episodes(
        'explorer',
        'lamp-1',
        SCORES_B.map((s, i) => s + (i % 2 === 0 ? 30 : -30)),
      ),
    );
    const comparison = compareRuns(baseline, oneGameWorse);
    expect(comparison.rows.find((r) => r.game === 'total')!.regression).toBe(false);
    expect(regressions(comparison)).toEqual([]);
    expect(regressions(comparison, { perGame: true }).map((r) => r.game)).toEqual(['crat-1']);
  });

  it('episodes with other seeds are compared unpaired, and the row says why', () => {
    const reseeded = run('reseeded', ['random'], episodes('random', 'crat-1', [0, 3, 1, 1], 5000));
    const row = compareRuns(baseline, reseeded).rows.find((r) => r.game === 'crat-1')!;
    expect(row.pairing).toBe('unpaired');
    expect(row.note).toBe('episode seeds differ (another run seed or agent label)');
    expect(row.verdict).not.toBe('identical');
    expect(renderComparisonTerminal(compareRuns(baseline, reseeded), { perGame: true })).toContain(
      'random: compared unpaired on every game: episode seeds differ (another run seed or agent label)',
    );
  });

  it('more episodes in the candidate: unpaired, counted on both sides', () => {
    const longer = run('longer', ['random'], episodes('random', 'crat-1', [1, 0, 2, 0, 4, 4]));
    const row = compareRuns(baseline, longer).rows.find((r) => r.game === 'crat-1')!;
    expect(row.pairing).toBe('unpaired');
    expect(row.baseline.episodes).toBe(4);
    expect(row.candidate.episodes).toBe(6);
    expect(row.note).toBe('different episodes (baseline 4, candidate 6)');
  });

  it('a single pair gives no interval and no verdict beyond "no significant change"', () => {
    const a = run('a', ['x'], episodes('x', 'crat-1', [5]));
    const b = run('b', ['x'], episodes('x', 'crat-1', [1]));
    const row = firstOf(compareRuns(a, b).rows, 'comparison row');
    expect(row.difference.interval).toBeNull();
    expect(row.verdict).toBe('no significant change');
    expect(renderComparisonTerminal(compareRuns(a, b))).toContain('n/a (< 2 episodes)');
  });

  it('names what only one run holds', () => {
    const other = run('other', ['explorer', 'llm'], episodes('explorer', 'crat-1', SCORES_A), episodes('explorer', 'keys-1', [1, 2]));
    expect(compareRuns(baseline, other).notes).toEqual([
      'only in the baseline, not compared: random',
      'only in the candidate, not compared: llm',
      'explorer: played in one run only, not compared: keys-1, lamp-1',
    ]);
  });

  it('refuses runs that share no agent, or no game, with a sentence that says what to do', () => {
    expect(() => compareRuns(baseline, run('c', ['llm'], episodes('llm', 'crat-1', [1, 2])))).toThrow(RunsNotComparableError);
    expect(() => compareRuns(baseline, run('c', ['llm'], episodes('llm', 'crat-1', [1, 2])))).toThrow(
      'the runs share no agent label (baseline: explorer, random; candidate: llm); compare runs of the same config, or give the agents the same labels',
    );
    expect(() => compareRuns(baseline, run('c', ['random'], episodes('random', 'slid-1', [1, 2])))).toThrow(/no agent played a game in both runs/);
  });

  it('renders markdown with a bold total row and the gate’s reading', () => {
    const text = renderComparisonMarkdown(compareRuns(baseline, baseline), { perGame: true });
    expect(text).toContain('| agent | game | episodes | baseline | candidate | difference | 95% CI | verdict |');
    expect(text).toContain('| explorer | crat-1 | 8 / 8 | 17.13 | 17.13 | +0.00 | [+0.00, +0.00] | identical |');
    expect(text).toContain('| explorer | **total** | **16 / 16** |');
    expect(text).toContain('- no regression (agent totals and games;');
  });
});
