/**
 * Lamp Grid levels, easiest first. Legend: * lit lamp, o unlit lamp, space a gap (no lamp). Made by
 * clicking a few lamps of a fully lit board, so each is solvable; the solver finds the fewest clicks.
 */
import type { LevelSource } from '../engine/definition.ts';

export const lampGridLevels: readonly LevelSource[] = [
  {
    map: `
      **o
      *oo
      **o
    `,
    baseline: 4,
  },
  {
    map: `
      *o*o
      *o*o
      **o*
    `,
    baseline: 5,
  },
  {
    map: `
      ooo*
      *o**
      *o*o
      oo*o
    `,
    baseline: 7,
  },
  {
    map: `
      **ooo
      ** o*
      *oooo
      o* oo
      oo**o
    `,
    baseline: 8,
  },
  {
    map: `
      oo*o*
      o**o*
      **ooo
      ooooo
      *o*oo
    `,
    baseline: 11,
  },
  {
    map: `
       o*oo
      ****oo
      **  oo
      **o**o
       *oo*
    `,
    baseline: 13,
  },
  {
    map: `
      o**oo*
      o*oo**
      ooo***
      oo*oo*
      **o*oo
    `,
    baseline: 14,
  },
];
