/**
 * The official games through arcbench's own service, frame by frame against the official toolkit's local
 * environment: the same seed and actions through both, every frame and the scorecard's scores equal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTransport } from '../src/client/inProcessTransport.ts';
import { loadOfficialGames, type OfficialGames } from '../src/games/official/index.ts';
import { makeAction } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { pythonHasRealEngineDependencies } from './support/officialCode.ts';
import { asToolkitFrame, ENGINE_ENV, PLAYS, TOOLKIT_GAMES_DIR as GAMES_DIR, toolkitPlay, ulps } from './support/toolkitPlays.ts';

describe.skipIf(!pythonHasRealEngineDependencies())('official games in the reference service (python3 lacks numpy or pydantic otherwise)', () => {
  let official: OfficialGames;
  beforeAll(async () => {
    official = await loadOfficialGames(GAMES_DIR, { env: ENGINE_ENV, hosts: 2 });
  }, 30_000);
  afterAll(() => official?.close());

  it('plays bt11 and bt33 frame for frame as the toolkit, and scores them as its scorecard code', async () => {
    const expected = toolkitPlay();
    const transport = new InProcessTransport(new ReferenceService({ games: official.games, seed: 1 }));
    const cardId = await transport.openScorecard();
    for (const [slug, steps] of Object.entries(PLAYS)) {
      const first = await transport.reset(cardId, slug);
      const seen = [asToolkitFrame(first)];
      for (const [id, x, y] of steps) {
        const answer =
          id === 0
            ? await transport.reset(cardId, slug, first.guid)
            : await transport.act(cardId, slug, first.guid, id === 6 ? makeAction(6, x, y) : makeAction(id as 1));
        seen.push(asToolkitFrame(answer));
      }
      expect(seen.length).toBe(expected.frames[slug]!.length);
      for (const [index, frame] of seen.entries()) expect({ index, ...frame }).toEqual({ index, ...expected.frames[slug]![index] });
    }
    const card = await transport.closeScorecard(cardId);
    const scores = (c: {
      score: number;
      environments: { id?: string | null; score: number; runs: { score: number; level_scores?: number[] | null }[] }[];
    }) => ({
      score: c.score,
      games: c.environments.map((e) => ({ id: e.id, score: e.score, runs: e.runs.map((r) => ({ score: r.score, level_scores: r.level_scores?.map(ulps) })) })),
    });
    expect(scores(card)).toEqual(scores(expected.scorecard));
  }, 60_000);
});
