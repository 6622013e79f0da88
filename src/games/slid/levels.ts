/**
 * Frost Slide levels, easiest first. Legend: . ice, # rock, _ snow (stops a slide), O hole (lost),
 * G goal, P player on ice. The rink's edge stops a slide like a rock.
 */
import type { LevelSource } from '../engine/definition.ts';

export const frostSlideLevels: readonly LevelSource[] = [
  {
    map: `
      ##...#
      .....P
      ...._#
      .....G
    `,
    baseline: 7,
  },
  {
    map: `
      ....G..
      _#....#
      _......
      ..#.#..
      ..P....
    `,
    baseline: 10,
  },
  {
    map: `
      .....#..
      ..._O...
      O..O#...
      ........
      P..#.G..
      ##...#.#
    `,
    baseline: 13,
  },
  {
    map: `
      O.....#..
      ...#...#.
      .##....#.
      .....#GO.
      P........
      ..O...#O.
      ..#O..O..
    `,
    baseline: 16,
  },
  {
    map: `
      ....#......
      ..O.P......
      ...#O......
      #.O._......
      ..#_...O..O
      ...O.#..._.
      ..........O
      ..._.#.##_.
      .G#.#......
    `,
    baseline: 20,
  },
  {
    map: `
      ..#..O....#
      ....#O..O..
      #...._..._.
      .........#_
      G....#._.._
      ##....#.._.
      .....O.....
      ...P.....#O
      #O.....##.#
    `,
    baseline: 22,
  },
];
