/** The engine's promises, checked on the real catalog games: docs/protocol.md §3–§4 as the games see them. */
import { describe, expect, it } from 'vitest';
import { GRID_CELLS, GRID_SIZE, type Grid } from '../src/protocol/index.ts';
import type { GameActionId } from '../src/protocol/index.ts';
import { BUDGET_ROW, cellAtDisplay } from '../src/games/engine/layout.ts';
import { gameInputOf } from '../src/games/engine/moveInput.ts';
import type { GameInput } from '../src/games/types.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import { firstFrame, gameBySlug, lastFrame, playArea, sameGrid, solveCurrentLevel } from './games-helpers.ts';
import { firstOf, itemAt } from './support/lists.ts';
import { createRng } from '../src/agent/rng.ts';

/** Random actions, ids 1..7 and clicks anywhere on the display, restarting the level when it ends. */
function randomRun(slug: string, seed: number, steps: number): Grid[] {
  const game = gameBySlug(slug);
  const random = createRng(seed).next;
  const play = game.start();
  const frames: Grid[] = [play.frame()];
  for (let i = 0; i < steps; i++) {
    if (play.outcome !== null) {
      frames.push(play.resetLevel());
      continue;
    }
    const id = (1 + Math.floor(random() * 7)) as GameActionId;
    const input: GameInput = id === 6 ? { id, x: Math.floor(random() * GRID_SIZE), y: Math.floor(random() * GRID_SIZE) } : { id };
    frames.push(...play.step(input).frames);
  }
  return frames;
}

describe.each(puzzleCatalog().map((game) => game.info.slug))('game %s', (slug) => {
  it('gives byte-identical grids for the same actions from the same start', () => {
    const first = randomRun(slug, 42, 600);
    const second = randomRun(slug, 42, 600);
    expect(second.length).toBe(first.length);
    for (const [i, grid] of first.entries()) if (!sameGrid(grid, itemAt(second, i, 'frame'))) expect.fail(`frame ${i} differs`);
  });

  it('draws every frame as 4096 colours in 0..15', () => {
    for (const frame of randomRun(slug, 7, 600)) {
      expect(frame.length).toBe(GRID_CELLS);
      const outside = frame.findIndex((colour) => colour > 15);
      if (outside >= 0) expect.fail(`colour ${frame[outside]} at ${outside}`);
    }
  });

  it('restores the pristine level on resetLevel', () => {
    const game = gameBySlug(slug);
    const play = game.start();
    const pristine = play.frame();
    const random = createRng(3).next;
    for (let i = 0; i < 15 && play.outcome === null; i++) play.step({ id: (1 + Math.floor(random() * 5)) as GameActionId });
    expect(sameGrid(play.resetLevel(), pristine)).toBe(true);
    expect(play.stepsTaken).toBe(0);
    expect(play.outcome).toBe(null);
  });

  it('moves on with at least two frames, the new level first look last, and wins after the last level', () => {
    const game = gameBySlug(slug);
    const play = game.start();
    for (let level = 0; level < game.levels.length; level++) {
      const result = solveCurrentLevel(game, play);
      expect(result.frames.length).toBeGreaterThanOrEqual(2);
      if (level < game.levels.length - 1) {
        expect(result.outcome).toBe('level_completed');
        expect(play.levelIndex).toBe(level + 1);
        const last = lastFrame(result);
        expect(sameGrid(last, play.frame())).toBe(true);
        // the new level's first look is its pristine look
        expect(sameGrid(last, play.resetLevel())).toBe(true);
        // the old level's last look is not the new level's look
        expect(sameGrid(playArea(itemAt(result.frames, result.frames.length - 2, 'frame')), playArea(last))).toBe(false);
      } else {
        expect(result.outcome).toBe('won');
      }
    }
    expect(() => play.step({ id: 1 })).toThrow(/won/);
  });

  it('ends the level as lost when the step budget is spent', () => {
    const game = gameBySlug(slug);
    const play = game.start();
    // ACTION7 does nothing here: there is nothing to undo, or the game has no undo.
    for (let i = 1; i < play.stepBudget; i++) expect(play.step({ id: 7 }).outcome).toBe('playing');
    const last = play.step({ id: 7 });
    expect(last.outcome).toBe('lost');
    const frame = lastFrame(last);
    expect(frame.subarray(BUDGET_ROW * GRID_SIZE).every((colour) => colour === 8)).toBe(true);
  });
});

describe('the engine', () => {
  it('counts a click on the letterbox as a step that changes nothing', () => {
    const game = gameBySlug('lamp');
    const play = game.start();
    const layout = firstOf(game.layouts, 'level layout');
    expect(layout.offsetX).toBeGreaterThan(0);
    expect(cellAtDisplay(layout, 0, 30)).toBe(-1);
    const before = play.frame();
    const result = play.step({ id: 6, x: 0, y: 30 });
    expect(result.outcome).toBe('playing');
    expect(play.stepsTaken).toBe(1);
    expect(sameGrid(playArea(firstFrame(result)), playArea(before))).toBe(true);
    // the budget bar shows the spent step
    expect(sameGrid(firstFrame(result), before)).toBe(false);
  });

  it('maps a click inside the board to its cell', () => {
    const game = gameBySlug('lamp');
    const play = game.start();
    const before = play.frame();
    const result = play.step(gameInputOf(firstOf(game.layouts, 'level layout'), { id: 6, x: 1, y: 1 }));
    expect(sameGrid(playArea(firstFrame(result)), playArea(before))).toBe(false);
  });

  it('undoes the last move (Crate Yard), spending a step', () => {
    const game = gameBySlug('crat');
    const play = game.start();
    const start = play.frame();
    const moved = firstFrame(play.step({ id: 4 }));
    expect(sameGrid(playArea(moved), playArea(start))).toBe(false);
    const undone = firstFrame(play.step({ id: 7 }));
    expect(sameGrid(playArea(undone), playArea(start))).toBe(true);
    expect(play.stepsTaken).toBe(2);
  });

  it('undoes only moves that changed something (Paint Spill)', () => {
    const game = gameBySlug('flod');
    const play = game.start();
    const layout = firstOf(game.layouts, 'level layout');
    const start = play.frame();
    // level 1's corner is blue (b), cell (1,1) red: a real move; then a click on the letterbox
    const spilled = firstFrame(play.step(gameInputOf(layout, { id: 6, x: 1, y: 1 })));
    play.step({ id: 6, x: 0, y: 0 });
    expect(sameGrid(playArea(play.frame()), playArea(spilled))).toBe(true);
    expect(sameGrid(playArea(firstFrame(play.step({ id: 7 }))), playArea(start))).toBe(true);
  });

  it('loses the level when the player slides into a hole, showing the fall (Frost Slide)', () => {
    const game = gameBySlug('slid');
    const play = game.start();
    solveCurrentLevel(game, play);
    solveCurrentLevel(game, play);
    expect(play.levelIndex).toBe(2);
    // level 3: the player at the left edge slides up into the hole two cells above
    const result = play.step({ id: 1 });
    expect(result.outcome).toBe('lost');
    expect(result.frames.length).toBe(2);
    expect(() => play.step({ id: 1 })).toThrow(/resetLevel/);
    play.resetLevel();
    expect(play.outcome).toBe(null);
  });

  it('animates a slide in three grids (Frost Slide)', () => {
    const game = gameBySlug('slid');
    const play = game.start();
    // level 1: the player at the right edge slides left across five cells
    const result = play.step({ id: 3 });
    expect(result.outcome).toBe('playing');
    expect(result.frames.length).toBe(3);
    for (let i = 1; i < result.frames.length; i++) expect(sameGrid(itemAt(result.frames, i - 1), itemAt(result.frames, i))).toBe(false);
  });

  it('loses the level when the player walks into open water (Plank Walk)', () => {
    const game = gameBySlug('plnk');
    const play = game.start();
    expect(play.step({ id: 4 }).outcome).toBe('playing');
    expect(play.step({ id: 4 }).outcome).toBe('playing');
    expect(play.step({ id: 4 }).outcome).toBe('lost');
  });

  it('lays a plank by clicking the water next to the player (Plank Walk)', () => {
    const game = gameBySlug('plnk');
    const play = game.start();
    play.step({ id: 4 });
    play.step({ id: 4 });
    play.step(gameInputOf(firstOf(game.layouts, 'level layout'), { id: 6, x: 4, y: 1 }));
    expect(play.step({ id: 4 }).outcome).toBe('playing');
    expect(play.step({ id: 4 }).outcome).toBe('playing');
    expect(play.step({ id: 4 }).outcome).toBe('level_completed');
  });

  it('picks up and uses a key with ACTION5 (Key Keeper)', () => {
    const game = gameBySlug('keys');
    const play = game.start();
    play.step({ id: 4 });
    play.step({ id: 4 });
    const before = play.frame();
    expect(sameGrid(playArea(firstFrame(play.step({ id: 5 }))), playArea(before))).toBe(false);
    play.step({ id: 2 });
    const door = play.frame();
    expect(sameGrid(playArea(firstFrame(play.step({ id: 5 }))), playArea(door))).toBe(false);
    for (const id of [4, 4] as const) play.step({ id });
    expect(play.step({ id: 4 }).outcome).toBe('level_completed');
  });
});
