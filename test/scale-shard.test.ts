// --shard i/n: the parsing and its sentences, and the cut itself: every planned episode in exactly one
// shard, even shares, and a cut that depends on nothing but the plan (not the order it is listed in).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/runner/config/loader.ts';
import { keyOfSpec } from '../src/runfolder/episodeKey.ts';
import { episodesOfShard, parseShard } from '../src/runner/shard.ts';

interface FakeSpec {
  agent: { label: string };
  game: { game_id: string };
  index: number;
}

function matrix(agents: number, games: number, episodes: number): FakeSpec[] {
  const specs: FakeSpec[] = [];
  for (let index = 0; index < episodes; index++)
    for (let g = 0; g < games; g++)
      for (let a = 0; a < agents; a++) specs.push({ agent: { label: `agent${a}` }, game: { game_id: `gm${g}-0000000${g}` }, index });
  return specs;
}

describe('--shard parsing', () => {
  it('reads i/n counting from 0', () => {
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    expect(parseShard(' 2/3 ')).toEqual({ index: 2, count: 3 });
  });

  it.each([
    ['3/3', 'i must be below n (the last of 3 is 2/3), got "3/3"'],
    ['0/0', 'n must be from 1 to 10000, got "0/0"'],
    ['1', 'got "1"'],
    ['-1/3', 'got "-1/3"'],
    ['1/2/3', 'got "1/2/3"'],
    ['a/b', 'got "a/b"'],
    ['1.5/3', 'got "1.5/3"'],
    ['', 'got ""'],
  ])('refuses %j with a sentence that says the form', (text, ending) => {
    let error: unknown;
    try {
      parseShard(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^--shard takes <i>\/<n>, the i-th of n parts counting from 0 \(e\.g\. --shard 0\/4 … --shard 3\/4\); /);
    expect((error as Error).message.endsWith(ending)).toBe(true);
  });
});

describe('the cut', () => {
  it('puts every planned episode in exactly one shard, with even shares, whatever the plan and n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 12 }),
        (agents, games, episodes, count) => {
          const plan = matrix(agents, games, episodes);
          const shards = Array.from({ length: count }, (_, index) => episodesOfShard(plan, { index, count }));
          const keys = shards.flat().map(keyOfSpec);
          expect(new Set(keys).size).toBe(keys.length);
          expect(new Set(keys)).toEqual(new Set(plan.map(keyOfSpec)));
          const sizes = shards.map((s) => s.length);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('keeps plan order inside a shard, and cuts the same however the plan is listed', () => {
    const plan = matrix(3, 4, 5);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.shuffledSubarray(plan, { minLength: plan.length }), (count, shuffled) => {
        for (let index = 0; index < count; index++) {
          const mine = episodesOfShard(plan, { index, count });
          expect(mine).toEqual(plan.filter((spec) => mine.includes(spec)));
          expect(new Set(episodesOfShard(shuffled, { index, count }).map(keyOfSpec))).toEqual(new Set(mine.map(keyOfSpec)));
        }
      }),
    );
  });

  it('mixes agents and games into every shard of a big enough plan', () => {
    const plan = matrix(2, 3, 10);
    for (let index = 0; index < 3; index++) {
      const mine = episodesOfShard(plan, { index, count: 3 });
      expect(new Set(mine.map((s) => s.agent.label)).size).toBe(2);
      expect(new Set(mine.map((s) => s.game.game_id)).size).toBe(3);
    }
  });
});
