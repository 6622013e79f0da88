// Game-clustered intervals, the spread across repeats and the minimum detectable difference: our real
// statistics code on simulated plans whose per-game spread is known, and its properties (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../src/agent/rng.ts';
import { minimumDetectableDifference, detectableSentence } from '../src/analysis/detectableDifference.ts';
import { bootstrapOverGames, clusteredByGame, gameMeans, studentOverGames } from '../src/analysis/gameClustered.ts';
import { type RepeatedScore, describeSpread, repeatSpread } from '../src/analysis/repeatSpread.ts';

/** A standard normal draw (Box–Muller). */
const normal = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** A plan of `games` games × `repeats` repeats × `episodes` episodes: each game's true mean drawn around `mu` with SD `tau`, each episode around its game's with SD `sigma`. */
function simulatePlan(rng: Rng, plan: { games: number; repeats: number; episodes: number; mu: number; tau: number; sigma: number }): RepeatedScore[] {
  const out: RepeatedScore[] = [];
  for (let g = 0; g < plan.games; g++) {
    const gameMean = plan.mu + plan.tau * normal(rng);
    for (let r = 0; r < plan.repeats; r++)
      for (let i = 0; i < plan.episodes; i++) out.push({ game: `g${g}`, repeat: r, score: gameMean + plan.sigma * normal(rng) });
  }
  return out;
}

describe('intervals clustered by game', () => {
  it('cover the mean over games about 95% of the time, where an episode-level interval would not', () => {
    const rng = createRng(2024);
    const plan = { games: 6, repeats: 3, episodes: 1, mu: 40, tau: 8, sigma: 10 };
    const simulations = 300;
    const covered = { 'cluster-bootstrap': 0, 'student-t': 0 };
    for (let s = 0; s < simulations; s++) {
      const values = gameMeans(simulatePlan(rng, plan));
      const both = clusteredByGame(values, { seed: s, resamples: 1000 });
      for (const method of ['cluster-bootstrap', 'student-t'] as const) {
        const interval = both[method].interval!;
        if (interval.low <= plan.mu && plan.mu <= interval.high) covered[method]++;
      }
    }
    for (const method of ['cluster-bootstrap', 'student-t'] as const) {
      expect(covered[method] / simulations, method).toBeGreaterThanOrEqual(0.9);
      expect(covered[method] / simulations, method).toBeLessThanOrEqual(0.99);
    }
  });

  it('contain their estimate, and are a point when every game scores the same', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }), (values) => {
        for (const estimate of Object.values(clusteredByGame(values, { resamples: 200 }))) {
          expect(estimate.games).toBe(values.length);
          expect(estimate.interval!.low).toBeLessThanOrEqual(estimate.value + 1e-9);
          expect(estimate.interval!.high).toBeGreaterThanOrEqual(estimate.value - 1e-9);
        }
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.integer({ min: 2, max: 10 }), (value, games) => {
        const same = Array.from({ length: games }, () => value);
        const t = studentOverGames(same).interval!;
        expect(t.low).toBeCloseTo(value, 9);
        expect(t.high).toBeCloseTo(value, 9);
        const boot = bootstrapOverGames(same, { resamples: 100 }).interval!;
        expect(boot.low).toBeCloseTo(value, 9);
        expect(boot.high).toBeCloseTo(value, 9);
      }),
    );
  });

  it('move with the scores: adding a constant to every game moves the interval by it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 2, maxLength: 10 }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        (values, shift) => {
          const before = studentOverGames(values).interval!;
          const after = studentOverGames(values.map((v) => v + shift)).interval!;
          expect(after.low).toBeCloseTo(before.low + shift, 6);
          expect(after.high).toBeCloseTo(before.high + shift, 6);
        },
      ),
    );
  });

  it('give no interval from one game', () => {
    expect(studentOverGames([12]).interval).toBeNull();
    expect(bootstrapOverGames([12]).interval).toBeNull();
  });
});

describe('the spread across repeats', () => {
  it("is each repeat's mean over games, with its SD and range", () => {
    const episodes: RepeatedScore[] = [
      { game: 'a', repeat: 0, score: 10 },
      { game: 'b', repeat: 0, score: 30 },
      { game: 'a', repeat: 1, score: 20 },
      { game: 'b', repeat: 1, score: 40 },
      { game: 'a', repeat: 2, score: 30 },
      { game: 'b', repeat: 2, score: 50 },
    ];
    const spread = repeatSpread(episodes)!;
    expect(spread.scores).toEqual([20, 30, 40]);
    expect(spread.mean).toBe(30);
    expect(spread.sd).toBe(10);
    expect([spread.min, spread.max]).toEqual([20, 40]);
    expect(describeSpread(spread)).toBe('mean 30.00, SD 10.00, 20.00–40.00 over 3 repeats');
  });

  it('has a mean between its min and max, and no SD from one repeat', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ game: fc.constantFrom('a', 'b', 'c'), repeat: fc.integer({ min: 0, max: 4 }), score: fc.double({ min: 0, max: 100, noNaN: true }) }),
          { minLength: 1 },
        ),
        (episodes) => {
          const spread = repeatSpread(episodes)!;
          expect(spread.min).toBeLessThanOrEqual(spread.mean + 1e-9);
          expect(spread.max).toBeGreaterThanOrEqual(spread.mean - 1e-9);
          expect(spread.sd === null).toBe(spread.repeats === 1);
        },
      ),
    );
  });
});

describe('the minimum detectable difference', () => {
  it('is the difference an 80%-power test over games finds: simulated true differences of that size are found about 4 times in 5', () => {
    const rng = createRng(7);
    const games = 8;
    const sd = 5;
    const mdd = minimumDetectableDifference(Array.from({ length: 40 }, () => sd * normal(rng)))!;
    // From 40 draws the SD is near 5: the planned MDD for 8 games is (t7 + z.8)·5/√8 ≈ 5.67.
    expect(mdd).toBeGreaterThan(0);
    const planned = (2.364624252 + 0.8416212335729143) * (sd / Math.sqrt(games));
    let found = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const differences = Array.from({ length: games }, () => planned + sd * normal(rng));
      if (studentOverGames(differences).interval!.low > 0) found++;
    }
    expect(found / trials).toBeGreaterThan(0.72);
    expect(found / trials).toBeLessThan(0.88);
  });

  it('grows with the spread and shrinks with games, and reads as a sentence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { minLength: 2, maxLength: 10 }),
        fc.double({ min: 1, max: 5, noNaN: true }),
        (d, k) => {
          const base = minimumDetectableDifference(d)!;
          expect(base).toBeGreaterThanOrEqual(0);
          expect(minimumDetectableDifference(d.map((v) => v * k))!).toBeCloseTo(base * k, 6);
        },
      ),
    );
    expect(minimumDetectableDifference([3])).toBeNull();
    expect(detectableSentence(2.4, 6, 3)).toBe('with 3 repeats of these 6 games, a difference under 2.40 points cannot be told from noise');
  });
});
