/**
 * Crate Yard levels, easiest first. Legend: # wall, . floor, P player, B crate, o pad, X crate on a pad,
 * Q player on a pad, space outside the yard. Baselines come from the solver and the baseline rule.
 */
import type { LevelSource } from '../engine/definition.ts';

export const crateYardLevels: readonly LevelSource[] = [
  {
    map: `
      #######
      #P.B.o#
      #######
    `,
    baseline: 7,
  },
  {
    map: `
      #######
      #o...o#
      #.B.B.#
      ##.P.##
      #..B..#
      #..o..#
      #######
    `,
    baseline: 22,
  },
  {
    map: `
       #####
      ##..P#
      #..B.#
      #.#B.##
      #o..o.#
      #######
    `,
    baseline: 26,
  },
  {
    map: `
      ######
      #P...#
      #.B#.#
      #..B.#
      #o.o.#
      ######
    `,
    baseline: 29,
  },
  {
    map: `
      ########
      #......#
      #.B..B.#
      #.#oo#.#
      #..##..#
      #P.B.o.#
      ########
    `,
    baseline: 35,
  },
  {
    map: `
        #####
      ###...#
      #o.B#.##
      #.B.o..#
      #.#.#B.#
      #P..o..#
      ########
    `,
    baseline: 44,
  },
];
