/**
 * Plank Walk levels, easiest first. Legend: # rock, . ground, ~ water, = a plank bridging water,
 * p a loose plank on the ground, P player, E exit.
 */
import type { LevelSource } from '../engine/definition.ts';

export const plankWalkLevels: readonly LevelSource[] = [
  {
    map: `
      ########
      #Pp.~.E#
      ########
    `,
    baseline: 11,
  },
  {
    map: `
      ##########
      #Pp.~.~.E#
      ##########
    `,
    baseline: 17,
  },
  {
    map: `
      ##########
      #P.~....E#
      #p.~.~~~~#
      #..=.~...#
      #..~.~.p.#
      ##########
    `,
    baseline: 17,
  },
  {
    map: `
      #########
      #P..~~..#
      #.p.~~..#
      #p..~~..#
      ###.~~.E#
      #########
    `,
    baseline: 22,
  },
  {
    map: `
      ###########
      #P.p~..~..#
      #...~.#~..#
      #~~~~.#~~=#
      #.p.~...~.#
      #...~.#.~E#
      ###########
    `,
    baseline: 25,
  },
  {
    map: `
      ############
      #Pp~.~.~...#
      #..~.~.~.#.#
      #..~.~.~.#~#
      #~~~.~.~.#~#
      #.p~...~..~#
      #..~~~~~~~~#
      #.........E#
      ############
    `,
    baseline: 26,
  },
];
