/**
 * End to end on the real catalog: each game's first level solved by the engine's solver and played
 * through the service, then the card checked. Proves the service drives real games, not only fixtures.
 */
import { describe, expect, it } from 'vitest';
import { ReferenceService } from '../src/reference/index.ts';
import { gameCatalog } from '../src/games/catalog.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import { displayOfCell } from '../src/games/engine/layout.ts';
import { solveLevel } from '../src/games/engine/solver.ts';
import { actionName } from '../src/protocol/index.ts';
import { levelScore } from '../src/reference/scoring.ts';

const KEY = 'catalog-e2e';

describe('reference service with the real catalog', () => {
  const games = puzzleCatalog();

  it('offers exactly the catalog games', () => {
    const service = new ReferenceService({ seed: 1, now: () => 0 });
    const listed = service.listGames(KEY).map((g) => g.game_id);
    const catalog = gameCatalog().map((g) => g.info.id);
    expect(listed.sort()).toEqual(catalog.sort());
  });

  it.skipIf(games.length === 0).each(games.map((game) => [game.info.id, game] as const))(
    'plays level 1 of %s to completion, closes, and scores it',
    (_id, game) => {
      let now = Date.UTC(2025, 0, 1);
      const service = new ReferenceService({ seed: 2, now: () => now });
      const { card_id } = service.openScorecard(KEY, { tags: ['e2e'] });
      const first = service.command(KEY, 'RESET', { game_id: game.info.slug, card_id });
      expect(first).toMatchObject({ game_id: game.info.id, levels_completed: 0, full_reset: true, state: 'NOT_FINISHED' });
      const { moves } = solveLevel(game.definition, game.levels[0]!);
      let last = first;
      for (const move of moves) {
        now += 1000;
        const body =
          move.id === 6
            ? { game_id: game.info.id, guid: first.guid, ...displayOfCell(game.layouts[0]!, move.x, move.y) }
            : { game_id: game.info.id, guid: first.guid };
        last = service.command(KEY, actionName(move.id) as 'ACTION1', body);
      }
      expect(last.levels_completed).toBe(1);
      const levelCount = game.info.baselineActions.length;
      expect(last.state).toBe(levelCount === 1 ? 'WIN' : 'NOT_FINISHED');
      if (levelCount > 1) expect(last.frame.length).toBeGreaterThanOrEqual(2);
      const card = service.closeScorecard(KEY, { card_id });
      const run = card.environments[0]?.runs[0];
      expect(run?.level_actions[0]).toBe(moves.length);
      expect(run?.level_scores[0]).toBeCloseTo(levelScore(game.info.baselineActions[0]!, moves.length), 10);
      expect(card).toMatchObject({ total_actions: moves.length, total_levels_completed: 1, total_levels: levelCount, tags: ['e2e', 'agent'] });
      expect(card.tags_scores?.[0]?.id).toBe(game.info.tags[0]);
      expect(card.score).toBeGreaterThan(0);
    },
  );
});
