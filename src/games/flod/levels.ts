/**
 * Paint Spill levels, easiest first. Every cell is a colour letter: r red, g green, b blue, y yellow,
 * p purple, o orange. The spill starts from the top-left cell.
 */
import type { LevelSource } from '../engine/definition.ts';

export const paintSpillLevels: readonly LevelSource[] = [
  {
    map: `
      bbgb
      brrg
      bbgg
      bbgr
    `,
    baseline: 7,
  },
  {
    map: `
      rbrbg
      rbrbg
      gbbgr
      bgrbb
      rrrgr
    `,
    baseline: 10,
  },
  {
    map: `
      ggyyyb
      yyyrrb
      rrgbrg
      ybybbg
      rbrgry
      grbrry
    `,
    baseline: 13,
  },
  {
    map: `
      rrgyygb
      yyryrbg
      grbyrry
      bgrgrgb
      bybrbyr
      gbbyggy
      bgbgygy
    `,
    baseline: 16,
  },
  {
    map: `
      grbbbgyg
      rbrgryrb
      ybygrbyg
      rbgbbyrr
      rybygryy
      yrggrybb
      ggrybrbg
      gbgbbrrg
    `,
    baseline: 19,
  },
  {
    map: `
      rypbbgpry
      gprggbyrr
      pbrgrrgry
      bgyprrbpy
      rgppgyprp
      brypygpyg
      bpbbbrrbg
      grbprypgb
      rpgyygrgp
    `,
    baseline: 22,
  },
];
