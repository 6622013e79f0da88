/**
 * Game step speed: steps per second for each catalog game under seeded random actions (from the game's
 * own action list, clicks anywhere on the display), restarting a level when it ends. Each step renders
 * and copies a full 64×64 grid, as the service needs it.
 */
import { GRID_SIZE, type GameActionId } from '../src/protocol/index.ts';
import type { PuzzleGame } from '../src/games/engine/puzzleGame.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { createRng } from '../src/runner/rng.ts';

const WARMUP_STEPS = 20_000;
const MEASURED_MILLISECONDS = 700;


function randomSteps(game: PuzzleGame<unknown, unknown>, random: () => number, steps: number): void {
  const actions = game.info.availableActions;
  let play = game.start();
  for (let i = 0; i < steps; i++) {
    const id: GameActionId = actions[Math.floor(random() * actions.length)];
    const result =
      id === 6 ? play.step({ id, x: Math.floor(random() * GRID_SIZE), y: Math.floor(random() * GRID_SIZE) }) : play.step({ id });
    if (result.outcome === 'lost') play.resetLevel();
    else if (result.outcome === 'won') play = game.start();
  }
}

/** Process CPU time in milliseconds: on a shared, loaded machine wall time would measure the neighbours. */
function cpuMilliseconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function stepsPerSecond(game: PuzzleGame<unknown, unknown>): number {
  const random = createRng(2024).next;
  randomSteps(game, random, WARMUP_STEPS);
  let steps = 0;
  const started = cpuMilliseconds();
  let elapsed = 0;
  while (elapsed < MEASURED_MILLISECONDS) {
    randomSteps(game, random, 5_000);
    steps += 5_000;
    elapsed = cpuMilliseconds() - started;
  }
  return Math.round((steps * 1000) / elapsed);
}

const suite: BenchSuite = {
  name: 'games',
  async run(): Promise<BenchFigure[]> {
    return puzzleCatalog().map((game) => ({
      figure: `${game.info.slug} (${game.info.title}) random steps`,
      value: stepsPerSecond(game),
      unit: 'steps/s',
      target: { op: '>=', value: 100_000 },
      note: 'seeded random actions from the game\'s action list, per CPU second; every returned grid rendered and copied',
    }));
  },
};
export default suite;
