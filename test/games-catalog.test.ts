/** The catalog's promises: well-formed descriptors, and every level solvable with an honest baseline. */
import { describe, expect, it } from 'vitest';
import { gameCatalog } from '../src/games/catalog.ts';
import { gameIdOf } from '../src/games/engine/gameId.ts';
import { gameInputOf } from '../src/games/engine/moveInput.ts';
import { puzzleGame } from '../src/games/engine/puzzleGame.ts';
import { baselineForOptimal } from '../src/games/engine/rules.ts';
import { solveLevel } from '../src/games/engine/solver.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';

const INPUT_TAGS = ['keyboard', 'click', 'keyboard_click'];

describe('the catalog', () => {
  it('offers at least six games with unique slugs and ids', () => {
    const infos = gameCatalog().map((game) => game.info);
    expect(infos.length).toBeGreaterThanOrEqual(6);
    expect(new Set(infos.map((info) => info.slug)).size).toBe(infos.length);
    expect(new Set(infos.map((info) => info.id)).size).toBe(infos.length);
  });

  it('covers every input kind, ACTION5, undo, animations and a loss beyond the budget', () => {
    const infos = gameCatalog().map((game) => game.info);
    for (const tag of INPUT_TAGS) expect(infos.some((info) => info.tags.includes(tag as never))).toBe(true);
    expect(infos.some((info) => info.availableActions.includes(5))).toBe(true);
    expect(infos.some((info) => info.availableActions.includes(7))).toBe(true);
    // animation and hazards are checked by behaviour in games-engine.test.ts
  });

  it.each(gameCatalog().map((game) => [game.info.slug, game.info] as const))('describes %s completely', (slug, info) => {
    expect(info.id).toMatch(new RegExp(`^${slug}-[0-9a-f]{8}$`));
    expect(slug).toMatch(/^[a-z0-9]{4}$/);
    expect(info.title.length).toBeGreaterThan(0);
    expect(info.tags.length).toBe(1);
    expect(INPUT_TAGS).toContain(info.tags[0]);
    expect(info.defaultFps).toBeGreaterThan(0);
    expect(info.baselineActions.length).toBeGreaterThanOrEqual(5);
    expect(info.baselineActions.length).toBeLessThanOrEqual(10);
    for (const id of info.availableActions) expect(id >= 1 && id <= 7).toBe(true);
    const keyboard = info.availableActions.some((id) => id <= 4);
    const click = info.availableActions.includes(6);
    expect(info.tags[0]).toBe(keyboard && click ? 'keyboard_click' : click ? 'click' : 'keyboard');
  });

  it('changes a game id when a level changes, and only then', () => {
    const game = puzzleCatalog()[0]!;
    const { definition } = game;
    expect(gameIdOf(definition.slug, definition.rulesVersion, definition.levels)).toBe(game.info.id);
    const edited = definition.levels.map((level, index) => (index === 0 ? { ...level, map: level.map.replace('.', '#') } : level));
    expect(puzzleGame({ ...definition, levels: edited }).info.id).not.toBe(game.info.id);
    const rebaselined = definition.levels.map((level, index) => (index === 0 ? { ...level, baseline: level.baseline + 1 } : level));
    expect(gameIdOf(definition.slug, definition.rulesVersion, rebaselined)).not.toBe(game.info.id);
    expect(gameIdOf(definition.slug, `${definition.rulesVersion}+1`, definition.levels)).not.toBe(game.info.id);
  });
});

describe.each(puzzleCatalog().map((game) => [game.info.slug, game] as const))('levels of %s', (_slug, game) => {
  it('are each solved by the solver, in one play, with baselines following the rule', () => {
    const play = game.start();
    const optima: number[] = [];
    for (let index = 0; index < game.levels.length; index++) {
      const solution = solveLevel(game.definition, game.levels[index]);
      optima.push(solution.moves.length);
      expect(game.info.baselineActions[index], `level ${index + 1}: optimal ${solution.moves.length}`).toBe(baselineForOptimal(solution.moves.length));
      expect(solution.moves.length).toBeLessThan(play.stepBudget);
      // Replayed as a player would send it, through the display: proves the solution on the real game.
      solution.moves.forEach((move, at) => {
        const outcome = play.step(gameInputOf(game.layouts[index]!, move)).outcome;
        const expected = at < solution.moves.length - 1 ? 'playing' : index < game.levels.length - 1 ? 'level_completed' : 'won';
        expect(outcome, `level ${index + 1}, move ${at + 1}`).toBe(expected);
      });
    }
    // rising difficulty: no level is easier than the one before it
    for (let index = 1; index < optima.length; index++) expect(optima[index]).toBeGreaterThanOrEqual(optima[index - 1]!);
  });
});
