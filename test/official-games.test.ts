/**
 * The official games through arcbench's own service, frame by frame against the official toolkit's local
 * environment: the same seed and actions through both, every frame and the scorecard's scores equal.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTransport } from '../src/client/inProcessTransport.ts';
import { loadOfficialGames, type OfficialGames } from '../src/games/official/index.ts';
import { encodeHexGrid } from '../src/protocol/hexGrid.ts';
import { makeAction, type FrameResponse } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { pythonHasRealEngineDependencies, REAL_ARCENGINE, REAL_TOOLKIT } from './support/officialCode.ts';

const GAMES_DIR = join(REAL_TOOLKIT, 'test_environment_files');
const ENGINE_ENV = { ...process.env, PYTHONPATH: REAL_ARCENGINE };
const SEED = 0;
type Step = [id: number, x: number, y: number];

const repeat = (id: number, times: number, x = 0, y = 0): Step[] => Array.from({ length: times }, () => [id, x, y]);
/** Completes levels, resets a level midway, loses one, resets after the loss, wins, and starts over. */
const PLAYS: Record<string, Step[]> = {
  bt11: [
    ...repeat(3, 4),
    [3, 0, 0],
    [4, 0, 0],
    [0, 0, 0],
    ...repeat(3, 8),
    ...repeat(4, 16),
    [0, 0, 0],
    ...repeat(3, 16),
    ...repeat(3, 20),
    ...repeat(3, 24),
    [0, 0, 0],
    [4, 0, 0],
  ],
  bt33: [...repeat(6, 4), [6, 60, 2], [6, 30, 30], [0, 0, 0], ...repeat(6, 3), [6, 63, 63], ...repeat(6, 5), [0, 0, 0], [0, 0, 0], [6, 0, 0]],
};

interface ToolkitAnswer {
  frames: Record<string, { frame: string[]; state: string; levels_completed: number; win_levels: number; available_actions: number[]; full_reset: boolean }[]>;
  scorecard: {
    score: number;
    environments: { id: string; score: number; runs: { score: number; level_scores: number[]; actions: number; resets: number; state: string }[] }[];
  };
}

function toolkitPlay(): ToolkitAnswer {
  const request = { dir: GAMES_DIR, seed: SEED, plays: Object.entries(PLAYS).map(([game, actions]) => ({ game, actions })) };
  const out = execFileSync('python3', [join(import.meta.dirname, 'support', 'toolkitLocalPlay.py')], {
    input: JSON.stringify(request),
    env: { ...process.env, PYTHONPATH: `${REAL_ARCENGINE}:${REAL_TOOLKIT}` },
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return JSON.parse(out) as ToolkitAnswer;
}

/** A level score to 12 significant digits: the official code divides in another order, and differs in the last bit. */
const ulps = (score: number) => Number(score.toPrecision(12));

function asToolkitFrame(response: FrameResponse) {
  return {
    frame: response.frame.map(encodeHexGrid),
    state: response.state,
    levels_completed: response.levels_completed,
    win_levels: response.win_levels,
    available_actions: response.available_actions,
    full_reset: response.full_reset,
  };
}

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
