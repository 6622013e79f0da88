/**
 * `arcbench serve --games-dir` and `arcbench games --games-dir`, as a user runs them: the official toolkit's
 * own Arcade, as a client pointed at our server's URL, plays the toolkit's test games through both dialects
 * with no error, and sees the frames its local environment makes for the same actions.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { pythonHasRealEngineDependencies } from './support/officialCode.ts';
import { serveGames } from './support/officialServe.ts';
import { ENGINE_ENV, PLAYS, TOOLKIT_GAMES_DIR, toolkitPlay } from './support/toolkitPlays.ts';

const withoutFullReset = (frames: { full_reset: boolean }[]) => frames.map(({ full_reset: _, ...rest }) => rest);

describe.skipIf(!pythonHasRealEngineDependencies())('arcbench serve --games-dir (python3 lacks numpy or pydantic otherwise)', () => {
  const local = pythonHasRealEngineDependencies() ? toolkitPlay() : undefined;

  for (const dialect of ['arcbench', 'toolkit']) {
    it(`the toolkit's Arcade plays the official games through the ${dialect} dialect as it plays them locally`, async () => {
      const server = await serveGames(dialect);
      try {
        const online = toolkitPlay(PLAYS, 0, server.url);
        for (const slug of Object.keys(PLAYS)) {
          // The toolkit's own server answers full_reset false always; our toolkit dialect says so too (docs/protocol.md §7a).
          if (dialect === 'toolkit') expect(withoutFullReset(online.frames[slug]!)).toEqual(withoutFullReset(local!.frames[slug]!));
          else expect(online.frames[slug]).toEqual(local!.frames[slug]);
        }
        if (dialect === 'arcbench') expect(online.scorecard.score).toBe(local!.scorecard.score);
      } finally {
        await server.stop();
      }
    }, 60_000);
  }

  it('serve --games-dir without arcengine says how to install it and exits 2 before it listens', async () => {
    const answer = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [ARCBENCH_BIN, 'serve', '--port', '0', '--games-dir', TOOLKIT_GAMES_DIR],
        { env: { ...process.env, PYTHONPATH: '' }, encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ code: Number((error as { code?: number } | null)?.code ?? 0), stdout, stderr }),
      ),
    );
    expect(answer.code).toBe(2);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toMatch(/^arcbench serve: .*arcengine.*pip install arcengine\n$/);
  }, 60_000);

  it('games --games-dir lists titles, levels and baselines', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [ARCBENCH_BIN, 'games', '--json', '--games-dir', TOOLKIT_GAMES_DIR], { env: ENGINE_ENV, encoding: 'utf8' }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    const listed = JSON.parse(out) as { game_id: string; title: string; levels: number; baseline_actions: number[]; available_actions: number[] }[];
    expect(
      listed.map(({ game_id, title, levels, baseline_actions, available_actions }) => ({ game_id, title, levels, baseline_actions, available_actions })),
    ).toEqual([
      { game_id: 'bt11-fd9df0622a1a', title: 'BT11', levels: 5, baseline_actions: [4, 8, 16, 20, 24], available_actions: [3, 4] },
      { game_id: 'bt33-a7c3f9d18b4e', title: 'BT33', levels: 3, baseline_actions: [10, 15, 20], available_actions: [6] },
    ]);
  }, 60_000);
});
