/**
 * For game authors: solves every level of the catalog and prints optimum, baseline and search size,
 * so baselines stored in a levels.ts can be (re)computed after editing a level:
 * `node bin/run-ts.js src/games/printBaselines.ts [slug]`.
 */
import { puzzleCatalog } from './puzzleCatalog.ts';
import { baselineForOptimal } from './engine/rules.ts';
import { solveLevel } from './engine/solver.ts';

const only = process.argv[2];
for (const game of puzzleCatalog()) {
  if (only !== undefined && game.info.slug !== only) continue;
  const baselines: number[] = [];
  for (let index = 0; index < game.levels.length; index++) {
    const started = performance.now();
    const solution = solveLevel(game.definition, game.levels[index]);
    const optimal = solution.moves.length;
    baselines.push(baselineForOptimal(optimal));
    const ms = (performance.now() - started).toFixed(0);
    console.log(
      `${game.info.slug} level ${index + 1}: optimal ${optimal}, baseline ${baselineForOptimal(optimal)} (stored ${game.info.baselineActions[index]}), ${solution.statesVisited} states, ${ms} ms`,
    );
  }
  console.log(`${game.info.slug} baselines: [${baselines.join(', ')}]`);
}
