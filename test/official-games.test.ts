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
import { asToolkitFrame, ENGINE_ENV, PLAYS, type Step, TOOLKIT_GAMES_DIR as GAMES_DIR, toolkitPlay } from './support/toolkitPlays.ts';

/** bt33's clicks: 28 on its first button finish its 3 levels with baselines, 20 and 24 more its last two. */
const BT33_CLICKS: Step[] = [...Array(28).fill([6, 0, 0]), ...Array(20).fill([6, 12, 12]), ...Array(24).fill([6, 8, 8])];

describe.skipIf(!pythonHasRealEngineDependencies())('official games in the reference service (python3 lacks numpy or pydantic otherwise)', () => {
  let official: OfficialGames;
  beforeAll(async () => {
    official = await loadOfficialGames(GAMES_DIR, { env: ENGINE_ENV, hosts: 2 });
  }, 30_000);
  afterAll(() => official?.close());

  /** Plays `plays` on one card of our service and of the toolkit's local environment: every frame, and the card's scores, equal. */
  async function playsAsTheToolkit(plays: Record<string, Step[]>): Promise<void> {
    const expected = toolkitPlay(plays);
    const transport = new InProcessTransport(new ReferenceService({ games: official.games, seed: 1 }));
    const cardId = await transport.openScorecard();
    for (const [slug, steps] of Object.entries(plays)) {
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
      total_levels?: number;
      total_levels_completed?: number;
      environments: { id?: string | null; score: number; runs: { score: number; level_scores?: number[] | null }[] }[];
    }) => ({
      score: c.score,
      levels: [c.total_levels, c.total_levels_completed],
      games: c.environments.map((e) => ({ id: e.id, score: e.score, runs: e.runs.map((r) => ({ score: r.score })) })),
    });
    expect(scores(card)).toEqual(scores(expected.scorecard));
    const levelScores = (c: { environments: { runs: { level_scores?: number[] | null }[] }[] }) => c.environments.map((e) => e.runs.map((r) => r.level_scores));
    expect(levelScores(card)).toEqual(levelScores(expected.scorecard));
  }

  it('plays bt11 and bt33 frame for frame as the toolkit, and scores them as its scorecard code', async () => {
    await playsAsTheToolkit(PLAYS);
  }, 60_000);

  // bt33 has 5 levels and baselines for 3: the official scorecard code scores a run that completes more
  // levels than there are baselines 0 (its baselines do not describe the game played).
  it.each([
    ['completes a level past its baselines', 48],
    ['is won past its baselines', 72],
  ])(
    'scores bt33 as the toolkit when a run %s',
    async (_what, clicks) => {
      await playsAsTheToolkit({ bt33: BT33_CLICKS.slice(0, clicks) });
    },
    60_000,
  );
});
