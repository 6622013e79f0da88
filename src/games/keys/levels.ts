/**
 * Key Keeper levels, easiest first. Legend: # wall, . floor, P player, E exit, keys r b y (red, blue,
 * yellow), locked doors R B Y of the same colours.
 */
import type { LevelSource } from '../engine/definition.ts';

export const keyKeeperLevels: readonly LevelSource[] = [
  {
    map: `
      #########
      #P.r#...#
      #...R.E.#
      #########
    `,
    baseline: 14,
  },
  {
    map: `
      ###########
      #P..#b..#.#
      #.r.R...B.#
      #...#...#E#
      ###########
    `,
    baseline: 26,
  },
  {
    map: `
      ############
      #P...#r...b#
      #.##.#.###.#
      #.#y.B...#.#
      #.####.#.#R#
      #......#.#.#
      ###Y####.#.#
      #E..R....#b#
      ############
    `,
    baseline: 38,
  },
  {
    map: `
      #########
      #r..#..y#
      #.#.R.#.#
      #P#.#.#.#
      #...#...#
      ###Y#####
      #..b..B.E
      #########
    `,
    baseline: 47,
  },
  {
    map: `
      ###########
      #b..R...#y#
      ###.#.#.#.#
      #P....#.B.#
      #.###.#####
      #.#r#.....#
      #.#.###Y#.#
      #...#..E#.#
      ###########
    `,
    baseline: 65,
  },
  {
    map: `
      ###########
      #P.....#..#
      #.###r.B..#
      #.#b#..#.y#
      #.#R#######
      #...Y....E#
      ###########
    `,
    baseline: 98,
  },
];
