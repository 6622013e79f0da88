// compare names no winner under the minimum detectable difference: two runs of 6 games × 3 repeats whose
// per-game differences are steady within a game but vary between games, through the real compareRuns.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../src/analysis/compareRuns.ts';
import { renderComparisonMarkdown } from '../src/analysis/comparisonTable.ts';
import type { RunEpisodes, ScoredEpisode } from '../src/analysis/episodeSample.ts';

const REPEATS = 3;

/** One run: per game, 3 repeats of one episode, scoring `base + shift(game) + wobble`. */
function run(name: string, shifts: readonly number[]): RunEpisodes {
  const episodes: ScoredEpisode[] = [];
  shifts.forEach((shift, g) => {
    for (let r = 0; r < REPEATS; r++) {
      const wobble = [0, 0.02, -0.02][r]!;
      episodes.push({ agent: 'llm', game: `game${g}-00000000`, episode: r, repeat: r, seed: 100 * g + r, score: 40 + 5 * g + 10 * r + shift + wobble });
    }
  });
  return { name, agents: ['llm'], episodes };
}

describe('the minimum detectable difference in compare', () => {
  const baseline = run('before', [0, 0, 0, 0, 0, 0]);

  it('refuses in words to call a winner when the difference is under it, though the episode interval leaves zero', () => {
    const candidate = run('after', [0.2, 3, -1, 2.5, 0.1, 1.2]);
    const comparison = compareRuns(baseline, candidate);
    const total = comparison.rows.find((r) => r.game === 'total')!;
    expect(total.difference.interval!.low).toBeGreaterThan(0);
    expect(total.verdict).toBe('too close to call');
    expect(total.judgement!.minimum_detectable!).toBeGreaterThan(total.difference.value);
    const text = renderComparisonMarkdown(comparison);
    expect(text).toMatch(
      /llm: no winner named: the difference \+1\.00 is under the minimum detectable difference \(with 3 repeats of these 6 games, a difference under \d+\.\d\d points cannot be told from noise\)/,
    );
    expect(text).toContain('clustered by game (Student t over games)');
    expect(text).toMatch(/across repeats: baseline mean \d+\.\d\d, SD \d+\.\d\d, \d+\.\d\d–\d+\.\d\d over 3 repeats/);
  });

  it('names the winner when the difference clears it, and states it', () => {
    const candidate = run('after', [4, 5, 4.5, 5.5, 4.8, 5.2]);
    const total = compareRuns(baseline, candidate).rows.find((r) => r.game === 'total')!;
    expect(total.verdict).toBe('better');
    expect(total.judgement!.detectable).toMatch(/^with 3 repeats of these 6 games, a difference under \d\.\d\d points cannot be told from noise$/);
  });
});
