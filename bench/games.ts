/**
 * Game step speed: steps per second for each catalog game under seeded random actions (from the game's
 * own action list, clicks anywhere on the display), restarting a level when it ends. Each step renders
 * and copies a full 64×64 grid, as the service needs it. The figure is the median of short rounds, not
 * the fastest as for the codec: rounds here play different stretches of the games (and collect their
 * garbage at different times), so the fastest round is not the typical step.
 */
import { GRID_SIZE, type GameActionId } from '../src/protocol/index.ts';
import type { PuzzleGame } from '../src/games/engine/puzzleGame.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { createRng } from '../src/agent/rng.ts';
import { timeCalls } from './measure.ts';

const WARMUP_STEPS = 20_000;
const STEPS_PER_ROUND = 5_000;
const ROUNDS = 15;

/** One seeded random step per call, restarting a level when it is lost and the game when it is won. */
function randomStepper(game: PuzzleGame<unknown, unknown>, random: () => number): () => void {
  const actions = game.info.availableActions;
  let play = game.start();
  return () => {
    const id: GameActionId = actions[Math.floor(random() * actions.length)]!;
    const result = id === 6 ? play.step({ id, x: Math.floor(random() * GRID_SIZE), y: Math.floor(random() * GRID_SIZE) }) : play.step({ id });
    if (result.outcome === 'lost') play.resetLevel();
    else if (result.outcome === 'won') play = game.start();
  };
}

/** Steps per CPU second in the fastest and in the median of ROUNDS rounds (see timeCalls). */
function stepsPerSecond(game: PuzzleGame<unknown, unknown>): { fastest: number; median: number } {
  const step = randomStepper(game, createRng(2024).next);
  for (let i = 0; i < WARMUP_STEPS; i++) step();
  const timing = timeCalls(step, { callsPerRound: STEPS_PER_ROUND, rounds: ROUNDS });
  return { fastest: 1e6 / timing.fastest, median: 1e6 / timing.median };
}

const suite: BenchSuite = {
  name: 'games',
  async run(): Promise<BenchFigure[]> {
    return puzzleCatalog().map((game) => {
      const rate = stepsPerSecond(game);
      return {
        figure: `${game.info.slug} (${game.info.title}) random steps`,
        value: Math.round(rate.median),
        unit: 'steps/s',
        target: { op: '>=', value: 100_000 },
        note: `seeded random actions from the game's action list, every returned grid rendered and copied; per CPU second in the median of ${ROUNDS} rounds of ${STEPS_PER_ROUND.toLocaleString('en-US')} steps, fastest round ${Math.round(rate.fastest).toLocaleString('en-US')}`,
      };
    });
  },
};
export default suite;
